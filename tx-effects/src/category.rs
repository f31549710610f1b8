//! One category of a tx on its own, for category proofs (docs/spec.md §12.6): its section of the
//! blob encoding, what that section holds, the place and role of every element in it, and its
//! category hash.
//!
//! A section is framed by the tx start marker's counts, so it can be read back without the rest
//! of the tx. Its fields are of three kinds, and only some are *elements*, values a proof can
//! name:
//!
//! | category | section | elements (role) |
//! |---|---|---|
//! | noteHashes, nullifiers, l2ToL1Msgs | `v_0, v_1, ..` | each `v_i` (`noteHash`, `nullifier`, `l2ToL1Msg`) |
//! | publicDataWrites | `slot_0, value_0, ..` | `publicDataWriteLeafSlot`, `publicDataWriteValue` of write i |
//! | privateLogs | `(len, f_0 .. f_len-1)..` | `privateLogField` j of log i; never a length |
//! | publicLogs | `(len, address, f..)..` | `publicLogField` j and `publicLogContractAddress` of log i; never a length |
//! | contractClassLogs | `address, f_0 .. f_len-1` | `contractClassLogField` j, `contractClassLogContractAddress` |
//!
//! A length field is framing, never an element. Searching by value looks at the *data* roles
//! only (the values a tx emits: note hashes, nullifiers, messages, written values, log fields)
//! unless a role is named, so a leaf slot or a contract address is found only when asked for.

use txfx_poseidon::{BackendError, Fr, HashBackend};

use crate::blob::{Section, TxBlobError, TxStartMarker, decode_category_section};
use crate::commitment::category_hash;
use crate::model::{Category, TxEffect};

/// What an element is within its category (module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ElementRole {
    /// A note hash (`noteHashes[index]`).
    NoteHash,
    /// A nullifier (`nullifiers[index]`).
    Nullifier,
    /// An L2-to-L1 message hash (`l2ToL1Msgs[index]`).
    L2ToL1Msg,
    /// The leaf slot of a public-data write.
    PublicDataWriteLeafSlot,
    /// The value of a public-data write.
    PublicDataWriteValue,
    /// An emitted field of a private log.
    PrivateLogField,
    /// A field of a public log.
    PublicLogField,
    /// The contract that emitted a public log.
    PublicLogContractAddress,
    /// An emitted field of the contract-class log.
    ContractClassLogField,
    /// The contract that emitted the contract-class log.
    ContractClassLogContractAddress,
}

/// How an element is addressed within its category.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlaceShape {
    /// By its index in the category's list (`index`).
    Index,
    /// By the public-data write it belongs to (`write`).
    Write,
    /// By its log and its field within the log (`log`, `field`).
    LogField,
    /// By its log (`log`).
    Log,
    /// By its field within the tx's only contract-class log (`field`).
    Field,
    /// By nothing more: the tx's only contract-class log's address.
    Only,
}

impl ElementRole {
    /// Every role, in category order.
    pub(crate) const ALL: [Self; 10] = [
        Self::NoteHash,
        Self::Nullifier,
        Self::L2ToL1Msg,
        Self::PublicDataWriteLeafSlot,
        Self::PublicDataWriteValue,
        Self::PrivateLogField,
        Self::PublicLogField,
        Self::PublicLogContractAddress,
        Self::ContractClassLogField,
        Self::ContractClassLogContractAddress,
    ];

    /// The role's name in proofs and verdicts.
    pub fn name(self) -> &'static str {
        match self {
            Self::NoteHash => "noteHash",
            Self::Nullifier => "nullifier",
            Self::L2ToL1Msg => "l2ToL1Msg",
            Self::PublicDataWriteLeafSlot => "publicDataWriteLeafSlot",
            Self::PublicDataWriteValue => "publicDataWriteValue",
            Self::PrivateLogField => "privateLogField",
            Self::PublicLogField => "publicLogField",
            Self::PublicLogContractAddress => "publicLogContractAddress",
            Self::ContractClassLogField => "contractClassLogField",
            Self::ContractClassLogContractAddress => "contractClassLogContractAddress",
        }
    }

    /// The category the role belongs to.
    pub fn category(self) -> Category {
        match self {
            Self::NoteHash => Category::NoteHashes,
            Self::Nullifier => Category::Nullifiers,
            Self::L2ToL1Msg => Category::L2ToL1Msgs,
            Self::PublicDataWriteLeafSlot | Self::PublicDataWriteValue => Category::PublicDataWrites,
            Self::PrivateLogField => Category::PrivateLogs,
            Self::PublicLogField | Self::PublicLogContractAddress => Category::PublicLogs,
            Self::ContractClassLogField | Self::ContractClassLogContractAddress => {
                Category::ContractClassLogs
            }
        }
    }

    /// Whether the role is data a tx emits (searched by default), rather than a key or an
    /// address that locates data (searched only when named).
    pub(crate) fn is_data(self) -> bool {
        !matches!(
            self,
            Self::PublicDataWriteLeafSlot
                | Self::PublicLogContractAddress
                | Self::ContractClassLogContractAddress
        )
    }

    /// How an element of this role is addressed.
    pub fn shape(self) -> PlaceShape {
        match self {
            Self::NoteHash | Self::Nullifier | Self::L2ToL1Msg => PlaceShape::Index,
            Self::PublicDataWriteLeafSlot | Self::PublicDataWriteValue => PlaceShape::Write,
            Self::PrivateLogField | Self::PublicLogField => PlaceShape::LogField,
            Self::PublicLogContractAddress => PlaceShape::Log,
            Self::ContractClassLogField => PlaceShape::Field,
            Self::ContractClassLogContractAddress => PlaceShape::Only,
        }
    }
}

crate::names::parsed_by_name!(
    /// A name that is no role's ([`ElementRole::name`] lists them).
    ElementRole,
    UnknownRole,
    "unknown element role {name:?}"
);

/// Where an element is in its category: its role, the item it belongs to (the note hash, the
/// write, the log; 0 for the only contract-class log) and, for log fields, its field in the log
/// (0 otherwise).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ElementPlace {
    /// The element's role.
    pub role: ElementRole,
    /// The item: the index in the category's list, the write, or the log.
    pub item: usize,
    /// The field within a log (log-field roles); 0 for every other role.
    pub field: usize,
}

impl core::fmt::Display for ElementPlace {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let (role, item, field) = (self.role, self.item, self.field);
        match role.shape() {
            PlaceShape::Index => write!(f, "{role} {item}"),
            PlaceShape::Write => write!(f, "{role} of write {item}"),
            PlaceShape::LogField => write!(f, "{role} {field} of log {item}"),
            PlaceShape::Log => write!(f, "{role} of log {item}"),
            PlaceShape::Field => write!(f, "{role} {field}"),
            PlaceShape::Only => write!(f, "{role}"),
        }
    }
}

/// One category of one tx: the items, and the marker that frames them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CategorySection {
    category: Category,
    marker: TxStartMarker,
    /// The items, held as an effect with only this category filled in.
    items: TxEffect,
}

impl CategorySection {
    /// The section of `category` in `effect`.
    pub fn of(effect: &TxEffect, category: Category) -> Self {
        let mut items = crate::model::TxEffectFields::default();
        let whole = effect.clone().into_fields();
        match category {
            Category::NoteHashes => items.note_hashes = whole.note_hashes,
            Category::Nullifiers => items.nullifiers = whole.nullifiers,
            Category::L2ToL1Msgs => items.l2_to_l1_msgs = whole.l2_to_l1_msgs,
            Category::PublicDataWrites => items.public_data_writes = whole.public_data_writes,
            Category::PrivateLogs => {
                // Fields past a private log's emitted length are in no section and no hash.
                items.private_logs = whole.private_logs;
                items.private_logs.iter_mut().for_each(|log| log.padding.clear());
            }
            Category::PublicLogs => items.public_logs = whole.public_logs,
            Category::ContractClassLogs => items.contract_class_logs = whole.contract_class_logs,
        }
        #[allow(
            clippy::expect_used,
            reason = "an internal invariant: one category of a legal effect is legal"
        )]
        let items = TxEffect::new(items).expect("invariant: a category of a legal effect is a legal effect");
        Self { category, marker: TxStartMarker::of(effect), items }
    }

    /// Reads a section back from its fields and the tx's start marker (docs/spec.md §12.6).
    /// The marker is checked against the protocol's limits first, so no reading or hashing is
    /// ever done for a count no tx can have; `fields` must then be exactly the length the
    /// marker gives, framed exactly by its log length fields.
    ///
    /// # Errors
    /// [`TxBlobError`] for a marker over the limits, a section of another length or framing,
    /// or items that break a protocol rule (offsets count from the tx's marker).
    pub fn decode(category: Category, marker: TxStartMarker, fields: &[Fr]) -> Result<Self, TxBlobError> {
        let items = decode_category_section(category, &marker, fields)?;
        Ok(Self { category, marker, items })
    }

    /// The length of `category`'s section in a tx with this marker.
    pub fn length(category: Category, marker: &TxStartMarker) -> usize {
        Section::Category(category).len(marker)
    }

    /// The category.
    pub fn category(&self) -> Category {
        self.category
    }

    /// The section's fields, exactly as the tx's blob data holds them.
    pub fn fields(&self) -> Vec<Fr> {
        let mut out = Vec::new();
        Section::Category(self.category).write(&self.items, Fr::from(0u64), &mut out);
        out
    }

    /// The category hash `C_i` of the section (docs/spec.md §6.2).
    ///
    /// # Errors
    /// [`BackendError`] if the backend fails.
    pub fn hash(&self, hasher: &dyn HashBackend) -> Result<Fr, BackendError> {
        category_hash(hasher, &self.items, self.category)
    }

    /// Every element of the section with its place, in section order (lengths are not elements).
    pub fn elements(&self) -> Vec<(ElementPlace, Fr)> {
        use ElementRole as R;
        let place = |role, item, field| ElementPlace { role, item, field };
        let flat = |role, values: &[Fr]| -> Vec<(ElementPlace, Fr)> {
            values.iter().enumerate().map(|(item, value)| (place(role, item, 0), *value)).collect()
        };
        let e = &self.items;
        match self.category {
            Category::NoteHashes => flat(R::NoteHash, &e.note_hashes),
            Category::Nullifiers => flat(R::Nullifier, &e.nullifiers),
            Category::L2ToL1Msgs => flat(R::L2ToL1Msg, &e.l2_to_l1_msgs),
            Category::PublicDataWrites => e
                .public_data_writes
                .iter()
                .enumerate()
                .flat_map(|(item, w)| {
                    [
                        (place(R::PublicDataWriteLeafSlot, item, 0), w.leaf_slot),
                        (place(R::PublicDataWriteValue, item, 0), w.value),
                    ]
                })
                .collect(),
            Category::PrivateLogs => e
                .private_logs
                .iter()
                .enumerate()
                .flat_map(|(item, log)| {
                    log.fields
                        .iter()
                        .enumerate()
                        .map(move |(field, value)| (place(R::PrivateLogField, item, field), *value))
                })
                .collect(),
            Category::PublicLogs => {
                e.public_logs
                    .iter()
                    .enumerate()
                    .flat_map(|(item, log)| {
                        core::iter::once((place(R::PublicLogContractAddress, item, 0), log.contract_address))
                            .chain(
                                log.fields.iter().enumerate().map(move |(field, value)| {
                                    (place(R::PublicLogField, item, field), *value)
                                }),
                            )
                    })
                    .collect()
            }
            Category::ContractClassLogs => e
                .contract_class_logs
                .iter()
                .flat_map(|log| {
                    core::iter::once((place(R::ContractClassLogContractAddress, 0, 0), log.contract_address))
                        .chain(
                            log.fields
                                .iter()
                                .enumerate()
                                .map(|(field, value)| (place(R::ContractClassLogField, 0, field), *value)),
                        )
                })
                .collect(),
        }
    }

    /// The element at `place`, or `None` if the section has no such place (another category's
    /// role, an item or field past the end, a field given where the role has none).
    pub fn element(&self, place: ElementPlace) -> Option<Fr> {
        self.elements().into_iter().find(|(at, _)| *at == place).map(|(_, value)| value)
    }

    /// The first place holding `value` in one of the section's data roles, or in `role` if one is
    /// named (module docs).
    pub fn find(&self, value: Fr, role: Option<ElementRole>) -> Option<ElementPlace> {
        let wanted = |at: &ElementPlace| match role {
            Some(role) => at.role == role,
            None => at.role.is_data(),
        };
        self.elements().into_iter().find(|(at, found)| *found == value && wanted(at)).map(|(at, _)| at)
    }
}

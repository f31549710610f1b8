//! JSON as txfx prints it: a value whose objects keep their keys in the order they were built,
//! so that every printed document has the key order of its TypeScript shape (or of txfx's own
//! format), byte for byte.
//!
//! [`serde_json::Value`] cannot promise that: its objects keep insertion order only when some
//! crate in the build turns on serde_json's `preserve_order` feature, and sort their keys
//! otherwise. A library that turned it on would force it on everything that depends on it, so
//! txfx's libraries build [`Json`] instead, whose [`Object`] is a list of entries in order.
//! [`Json`] prints exactly as a `Value` of the same content and order prints: `to_string()`
//! compact, `{:#}` (or `serde_json::to_string_pretty`) pretty.
//!
//! Reading is another matter: a parsed document is read through [`super::JsonInput`], where key
//! order never matters. [`Json::to_value`] gives a `Value` to read or compare (its key order is
//! then serde_json's).

use std::fmt;
use std::ops::Index;

use serde::ser::{self, Serialize};
use serde_json::{Number, Value};

/// A JSON value whose objects keep their keys in the order they were built: what every printer
/// of txfx gives, in the key order of its TypeScript shape (or of txfx's own format).
///
/// [`serde_json::Value`] cannot promise that order: its objects keep insertion order only when
/// some crate in the build turns on serde_json's `preserve_order` feature, and sort their keys
/// otherwise. A library that turned it on would force it on everything that depends on it, so
/// txfx builds `Json` instead, whose [`Object`] is a list of entries in order.
///
/// A `Json` prints exactly as a `Value` of the same content and order prints: `to_string()`
/// compact (`JSON.stringify`'s bytes), `{:#}` or `serde_json::to_string_pretty` pretty. To read
/// one, give `&json` to a reader (through [`super::JsonInput`]) or take [`Json::to_value`].
///
/// ```
/// use txfx_documents::json::{Json, Object};
/// let json = Json::from(Object::new().with("txHash", "0x01").with("leafIndex", "3").with("blockNumber", 7u32));
/// assert_eq!(json.to_string(), r#"{"txHash":"0x01","leafIndex":"3","blockNumber":7}"#);
/// assert_eq!(json["blockNumber"], 7);
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Json {
    /// `null`.
    #[default]
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, as serde_json holds and prints it.
    Number(Number),
    /// A string.
    String(String),
    /// An array.
    Array(Vec<Json>),
    /// An object, its keys in order.
    Object(Object),
}

/// A JSON object whose keys keep the order they were inserted in.
///
/// Equality is the order's too: two objects with the same entries in another order are different
/// documents when printed.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Object {
    entries: Vec<(String, Json)>,
}

static NULL: Json = Json::Null;

impl Object {
    /// An empty object.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets `key` to `value`: a new key goes last, a key already present keeps its place (as a
    /// `Map` with `preserve_order` does).
    pub fn insert(&mut self, key: impl Into<String>, value: impl Into<Json>) {
        let key = key.into();
        let value = value.into();
        match self.entries.iter_mut().find(|(k, _)| *k == key) {
            Some((_, slot)) => *slot = value,
            None => self.entries.push((key, value)),
        }
    }

    /// This object with `key` set to `value` ([`Object::insert`]).
    #[must_use]
    pub fn with(mut self, key: impl Into<String>, value: impl Into<Json>) -> Self {
        self.insert(key, value);
        self
    }

    /// Removes `key`, keeping the other keys' order; its value, if it was present.
    pub fn remove(&mut self, key: &str) -> Option<Json> {
        let at = self.entries.iter().position(|(k, _)| k == key)?;
        Some(self.entries.remove(at).1)
    }

    /// The value of `key`, if present.
    pub fn get(&self, key: &str) -> Option<&Json> {
        self.entries.iter().find(|(k, _)| k == key).map(|(_, value)| value)
    }

    /// The entries, in order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Json)> {
        self.entries.iter().map(|(key, value)| (key.as_str(), value))
    }

    /// The keys, in order.
    pub fn keys(&self) -> impl Iterator<Item = &String> {
        self.entries.iter().map(|(key, _)| key)
    }

    /// The number of keys.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the object has no keys.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

impl<K: Into<String>, V: Into<Json>> FromIterator<(K, V)> for Object {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(entries: I) -> Self {
        let mut object = Self::new();
        for (key, value) in entries {
            object.insert(key, value);
        }
        object
    }
}

impl Json {
    /// `value` as JSON, its structs' fields and maps' entries in the order it serializes them
    /// (serde's derive: the fields' declaration order).
    ///
    /// # Errors
    /// What `serde_json::to_value` fails with: a map key that is not a string or a number, or
    /// the value's own failure.
    pub fn from_serialize<T: Serialize + ?Sized>(value: &T) -> Result<Self, serde_json::Error> {
        value.serialize(Serializer)
    }

    /// The value as a [`serde_json::Value`], to read or compare; its objects' key order is then
    /// serde_json's (sorted, unless some crate in the build turns on `preserve_order`).
    pub fn to_value(&self) -> Value {
        match self {
            Self::Null => Value::Null,
            Self::Bool(value) => Value::Bool(*value),
            Self::Number(value) => Value::Number(value.clone()),
            Self::String(value) => Value::String(value.clone()),
            Self::Array(values) => Value::Array(values.iter().map(Self::to_value).collect()),
            Self::Object(object) => {
                Value::Object(object.iter().map(|(key, value)| (key.to_owned(), value.to_value())).collect())
            }
        }
    }

    /// The value of `key`, when this is an object that has it.
    pub fn get(&self, key: &str) -> Option<&Json> {
        self.as_object().and_then(|object| object.get(key))
    }

    /// The object, when this is one.
    pub fn as_object(&self) -> Option<&Object> {
        match self {
            Self::Object(object) => Some(object),
            _ => None,
        }
    }

    /// The object, when this is one, to add to.
    pub fn as_object_mut(&mut self) -> Option<&mut Object> {
        match self {
            Self::Object(object) => Some(object),
            _ => None,
        }
    }

    /// The elements, when this is an array.
    pub fn as_array(&self) -> Option<&[Json]> {
        match self {
            Self::Array(values) => Some(values),
            _ => None,
        }
    }

    /// The string, when this is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Self::String(value) => Some(value),
            _ => None,
        }
    }
}

impl Index<&str> for Json {
    type Output = Json;

    /// The value of `key`, or `null` when this is no object or has no such key (as `Value`).
    fn index(&self, key: &str) -> &Json {
        self.get(key).unwrap_or(&NULL)
    }
}

impl Index<usize> for Json {
    type Output = Json;

    /// The element at `index`, or `null` when this is no array or is shorter (as `Value`).
    fn index(&self, index: usize) -> &Json {
        self.as_array().and_then(|values| values.get(index)).unwrap_or(&NULL)
    }
}

impl PartialEq<Value> for Json {
    /// The same content, key order aside (as `Value`'s own equality).
    fn eq(&self, other: &Value) -> bool {
        self.to_value() == *other
    }
}

impl PartialEq<Json> for Value {
    fn eq(&self, other: &Json) -> bool {
        other == self
    }
}

impl PartialEq<str> for Json {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == Some(other)
    }
}

impl PartialEq<&str> for Json {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == Some(*other)
    }
}

impl PartialEq<String> for Json {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == Some(other.as_str())
    }
}

impl PartialEq<bool> for Json {
    fn eq(&self, other: &bool) -> bool {
        matches!(self, Self::Bool(value) if value == other)
    }
}

macro_rules! eq_integer {
    ($wide:ty, $as_wide:ident: $($t:ty),*) => {$(
        impl PartialEq<$t> for Json {
            /// As `Value`'s comparison with an integer.
            fn eq(&self, other: &$t) -> bool {
                let Self::Number(number) = self else { return false };
                <$wide>::try_from(*other).is_ok_and(|other| number.$as_wide() == Some(other))
            }
        }
    )*};
}

eq_integer!(u64, as_u64: u8, u16, u32, u64, usize);
eq_integer!(i64, as_i64: i8, i16, i32, i64, isize);

impl From<Json> for Value {
    fn from(json: Json) -> Self {
        json.to_value()
    }
}

impl From<&Value> for Json {
    /// A parsed value, its objects' keys in the order the `Value` holds them.
    fn from(value: &Value) -> Self {
        match value {
            Value::Null => Self::Null,
            Value::Bool(value) => Self::Bool(*value),
            Value::Number(value) => Self::Number(value.clone()),
            Value::String(value) => Self::String(value.clone()),
            Value::Array(values) => Self::Array(values.iter().map(Self::from).collect()),
            Value::Object(map) => {
                Self::Object(map.iter().map(|(key, value)| (key.clone(), Self::from(value))).collect())
            }
        }
    }
}

impl From<Value> for Json {
    fn from(value: Value) -> Self {
        Self::from(&value)
    }
}

impl From<Object> for Json {
    fn from(object: Object) -> Self {
        Self::Object(object)
    }
}

impl From<bool> for Json {
    fn from(value: bool) -> Self {
        Self::Bool(value)
    }
}

impl From<&str> for Json {
    fn from(value: &str) -> Self {
        Self::String(value.to_owned())
    }
}

impl From<String> for Json {
    fn from(value: String) -> Self {
        Self::String(value)
    }
}

impl From<Number> for Json {
    fn from(value: Number) -> Self {
        Self::Number(value)
    }
}

macro_rules! from_integer {
    ($($t:ty),*) => {$(
        impl From<$t> for Json {
            fn from(value: $t) -> Self {
                Self::Number(Number::from(value))
            }
        }
    )*};
}

from_integer!(u8, u16, u32, u64, usize, i8, i16, i32, i64, isize);

impl<T: Into<Json>> From<Vec<T>> for Json {
    fn from(values: Vec<T>) -> Self {
        Self::Array(values.into_iter().map(Into::into).collect())
    }
}

impl<T: Into<Json>> From<Option<T>> for Json {
    /// `null` for `None`.
    fn from(value: Option<T>) -> Self {
        value.map_or(Self::Null, Into::into)
    }
}

impl<T: Into<Json>> FromIterator<T> for Json {
    /// An array.
    fn from_iter<I: IntoIterator<Item = T>>(values: I) -> Self {
        Self::Array(values.into_iter().map(Into::into).collect())
    }
}

impl Serialize for Json {
    /// As a `Value` of the same content and order serializes: objects as maps, in order.
    fn serialize<S: ser::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Null => serializer.serialize_unit(),
            Self::Bool(value) => serializer.serialize_bool(*value),
            Self::Number(value) => value.serialize(serializer),
            Self::String(value) => serializer.serialize_str(value),
            Self::Array(values) => serializer.collect_seq(values),
            Self::Object(object) => object.serialize(serializer),
        }
    }
}

impl Serialize for Object {
    fn serialize<S: ser::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.entries.iter().map(|(key, value)| (key, value)))
    }
}

impl fmt::Display for Json {
    /// Compact JSON, as `Value` prints (`JSON.stringify`'s bytes for the same order); `{:#}`
    /// pretty, as `serde_json::to_string_pretty`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text =
            if f.alternate() { serde_json::to_string_pretty(self) } else { serde_json::to_string(self) };
        f.write_str(&text.map_err(|_| fmt::Error)?)
    }
}

/// serde's data model into [`Json`], in serialization order: what `serde_json::to_value` does,
/// with objects kept in order.
struct Serializer;

/// An array being built.
struct SeqBuilder {
    values: Vec<Json>,
    /// The variant a tuple variant is wrapped in (`{"Variant": [..]}`).
    variant: Option<&'static str>,
}

/// An object being built.
struct ObjectBuilder {
    object: Object,
    /// The key whose value comes next (a map's).
    key: Option<String>,
    /// The variant a struct variant is wrapped in (`{"Variant": {..}}`).
    variant: Option<&'static str>,
}

fn wrapped(variant: Option<&'static str>, value: Json) -> Json {
    match variant {
        Some(variant) => Json::Object(Object::new().with(variant, value)),
        None => value,
    }
}

impl ser::Serializer for Serializer {
    type Ok = Json;
    type Error = serde_json::Error;
    type SerializeSeq = SeqBuilder;
    type SerializeTuple = SeqBuilder;
    type SerializeTupleStruct = SeqBuilder;
    type SerializeTupleVariant = SeqBuilder;
    type SerializeMap = ObjectBuilder;
    type SerializeStruct = ObjectBuilder;
    type SerializeStructVariant = ObjectBuilder;

    fn serialize_bool(self, v: bool) -> Result<Json, Self::Error> {
        Ok(Json::Bool(v))
    }
    fn serialize_i8(self, v: i8) -> Result<Json, Self::Error> {
        Ok(Json::from(v))
    }
    fn serialize_i16(self, v: i16) -> Result<Json, Self::Error> {
        Ok(Json::from(v))
    }
    fn serialize_i32(self, v: i32) -> Result<Json, Self::Error> {
        Ok(Json::from(v))
    }
    fn serialize_i64(self, v: i64) -> Result<Json, Self::Error> {
        Ok(Json::from(v))
    }
    fn serialize_u8(self, v: u8) -> Result<Json, Self::Error> {
        Ok(Json::from(v))
    }
    fn serialize_u16(self, v: u16) -> Result<Json, Self::Error> {
        Ok(Json::from(v))
    }
    fn serialize_u32(self, v: u32) -> Result<Json, Self::Error> {
        Ok(Json::from(v))
    }
    fn serialize_u64(self, v: u64) -> Result<Json, Self::Error> {
        Ok(Json::from(v))
    }
    fn serialize_f32(self, v: f32) -> Result<Json, Self::Error> {
        self.serialize_f64(f64::from(v))
    }
    fn serialize_f64(self, v: f64) -> Result<Json, Self::Error> {
        // As serde_json: a non-finite float is null.
        Ok(Number::from_f64(v).map_or(Json::Null, Json::Number))
    }
    fn serialize_char(self, v: char) -> Result<Json, Self::Error> {
        Ok(Json::String(v.to_string()))
    }
    fn serialize_str(self, v: &str) -> Result<Json, Self::Error> {
        Ok(Json::from(v))
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<Json, Self::Error> {
        Ok(Json::Array(v.iter().map(|byte| Json::from(*byte)).collect()))
    }
    fn serialize_none(self) -> Result<Json, Self::Error> {
        Ok(Json::Null)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<Json, Self::Error> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<Json, Self::Error> {
        Ok(Json::Null)
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<Json, Self::Error> {
        Ok(Json::Null)
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<Json, Self::Error> {
        Ok(Json::from(variant))
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<Json, Self::Error> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<Json, Self::Error> {
        Ok(wrapped(Some(variant), value.serialize(self)?))
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<SeqBuilder, Self::Error> {
        Ok(SeqBuilder { values: Vec::with_capacity(len.unwrap_or(0)), variant: None })
    }
    fn serialize_tuple(self, len: usize) -> Result<SeqBuilder, Self::Error> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(self, _: &'static str, len: usize) -> Result<SeqBuilder, Self::Error> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<SeqBuilder, Self::Error> {
        Ok(SeqBuilder { values: Vec::with_capacity(len), variant: Some(variant) })
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<ObjectBuilder, Self::Error> {
        Ok(ObjectBuilder { object: Object::new(), key: None, variant: None })
    }
    fn serialize_struct(self, _: &'static str, len: usize) -> Result<ObjectBuilder, Self::Error> {
        self.serialize_map(Some(len))
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<ObjectBuilder, Self::Error> {
        Ok(ObjectBuilder { object: Object::new(), key: None, variant: Some(variant) })
    }
}

impl SeqBuilder {
    fn push<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), serde_json::Error> {
        self.values.push(value.serialize(Serializer)?);
        Ok(())
    }
    fn done(self) -> Json {
        wrapped(self.variant, Json::Array(self.values))
    }
}

impl ser::SerializeSeq for SeqBuilder {
    type Ok = Json;
    type Error = serde_json::Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Self::Error> {
        self.push(value)
    }
    fn end(self) -> Result<Json, Self::Error> {
        Ok(self.done())
    }
}

impl ser::SerializeTuple for SeqBuilder {
    type Ok = Json;
    type Error = serde_json::Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Self::Error> {
        self.push(value)
    }
    fn end(self) -> Result<Json, Self::Error> {
        Ok(self.done())
    }
}

impl ser::SerializeTupleStruct for SeqBuilder {
    type Ok = Json;
    type Error = serde_json::Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Self::Error> {
        self.push(value)
    }
    fn end(self) -> Result<Json, Self::Error> {
        Ok(self.done())
    }
}

impl ser::SerializeTupleVariant for SeqBuilder {
    type Ok = Json;
    type Error = serde_json::Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Self::Error> {
        self.push(value)
    }
    fn end(self) -> Result<Json, Self::Error> {
        Ok(self.done())
    }
}

impl ObjectBuilder {
    fn field<T: Serialize + ?Sized>(&mut self, key: &str, value: &T) -> Result<(), serde_json::Error> {
        self.object.insert(key, value.serialize(Serializer)?);
        Ok(())
    }
    fn done(self) -> Json {
        wrapped(self.variant, Json::Object(self.object))
    }
}

impl ser::SerializeMap for ObjectBuilder {
    type Ok = Json;
    type Error = serde_json::Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Self::Error> {
        // As serde_json: a key is a string, or a number or boolean printed as one.
        self.key = Some(match key.serialize(Serializer)? {
            Json::String(key) => key,
            Json::Number(key) => key.to_string(),
            Json::Bool(key) => key.to_string(),
            _ => return Err(ser::Error::custom("key must be a string")),
        });
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Self::Error> {
        let key = self.key.take().ok_or_else(|| ser::Error::custom("a map value without its key"))?;
        self.field(&key, value)
    }
    fn end(self) -> Result<Json, Self::Error> {
        Ok(self.done())
    }
}

impl ser::SerializeStruct for ObjectBuilder {
    type Ok = Json;
    type Error = serde_json::Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Self::Error> {
        self.field(key, value)
    }
    fn end(self) -> Result<Json, Self::Error> {
        Ok(self.done())
    }
}

impl ser::SerializeStructVariant for ObjectBuilder {
    type Ok = Json;
    type Error = serde_json::Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Self::Error> {
        self.field(key, value)
    }
    fn end(self) -> Result<Json, Self::Error> {
        Ok(self.done())
    }
}

#[cfg(test)]
mod tests {
    use serde::Serialize;

    use super::*;

    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Shape {
        zeta: u32,
        alpha: &'static str,
        middle: Vec<Option<bool>>,
        #[serde(skip_serializing_if = "Option::is_none")]
        absent: Option<u8>,
        nested: Inner,
    }

    #[derive(Serialize)]
    struct Inner {
        y: i64,
        b: f64,
    }

    fn shape() -> Shape {
        Shape {
            zeta: 1,
            alpha: "a\"\u{e9}",
            middle: vec![Some(true), None],
            absent: None,
            nested: Inner { y: -2, b: 0.5 },
        }
    }

    #[test]
    fn keys_keep_the_order_they_were_built_in_whatever_serde_json_s_features() {
        let json = Object::new()
            .with("z", 1u64)
            .with("a", "x")
            .with("m", Object::new().with("q", true).with("b", Json::Null));
        assert_eq!(Json::from(json).to_string(), r#"{"z":1,"a":"x","m":{"q":true,"b":null}}"#);
    }

    #[test]
    fn a_serialized_struct_keeps_its_field_order_and_prints_as_serde_json_prints_it() {
        let json = Json::from_serialize(&shape()).unwrap();
        assert_eq!(json.to_string(), serde_json::to_string(&shape()).unwrap());
        assert_eq!(format!("{json:#}"), serde_json::to_string_pretty(&shape()).unwrap());
        assert_eq!(
            serde_json::to_string_pretty(&json).unwrap(),
            serde_json::to_string_pretty(&shape()).unwrap()
        );
        assert_eq!(json, serde_json::to_value(shape()).unwrap(), "the same content as serde_json's value");
    }

    #[test]
    fn insert_replaces_in_place_and_index_reads_like_value() {
        let mut object = Object::new().with("a", 1u64).with("b", 2u64);
        object.insert("a", 3u64);
        let json = Json::from(object);
        assert_eq!(json.to_string(), r#"{"a":3,"b":2}"#);
        assert_eq!(json["b"], Json::from(2u64));
        assert_eq!(json["missing"], Json::Null);
        assert_eq!(json[0], Json::Null);
        assert_eq!(Json::from(vec![1u64, 2])[1], Json::from(2u64));
        assert!(json["a"] == 3u8 && json["a"] == 3i64 && json["a"] != 4usize && json["a"] != "3");
        let (minus_one, x) = (Json::from(-1i32), Json::from("x"));
        assert!(minus_one == -1isize && minus_one != u64::MAX && x == "x" && x == *"x");
    }

    #[test]
    fn empty_containers_print_as_value_prints_them() {
        let json = Json::from(Object::new().with("a", Json::Array(Vec::new())).with("o", Object::new()));
        assert_eq!(format!("{json:#}"), format!("{:#}", json.to_value()));
        assert_eq!(json.to_string(), r#"{"a":[],"o":{}}"#);
    }
}

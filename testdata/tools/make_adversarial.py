#!/usr/bin/env python3
"""Write testdata/adversarial/catalogue.json: the attacks an untrusted server can make on a verifier
that trusts only the archive root L1 holds, each as a case run through txfx's document layer (every
backend, suite) and through the command line (cli/tests/adversarial.rs).

Documents are given by reference so that the catalogue stays small: a JSON value is a document
itself, except an object {"$file": path, "patch": [[op, pointer, value], ...]} (the file's JSON with
"set" or "remove" applied at JSON pointers, values themselves such references), {"$object": [[key,
value], ...]} (an object built key by key, in order), {"$repeat": [value, n]} (an array of n
copies) and {"$text": text} (a document that is not JSON). The runners resolve them
(txfx_suite::adversarial::resolve) and pass each document as compact JSON text.

Every case is an operation on documents an attacker controls, with the outcome chosen by hand from
docs/spec.md (sections 12.8 and 12.9): "valid" with the facts the verdict must name (and the ones
it must not), or a refusal with its class, its kind (txfx_poseidon::Classify), and for a refuted
check the link that broke. Inputs are TypeScript's own documents (testdata/chain/, testdata/typescript/)
and the upstream fixtures (aztec-fixtures.json), changed as an attacker would change them; no
expected value comes from txfx."""
import base64, copy, json, os

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)
def load(path): return json.load(open(os.path.join(root, path)))
def read(path): return open(os.path.join(root, path)).read()
def h(x): return "0x%064x" % x

fx = load("aztec-fixtures.json")
small_fx, empty_fx, max_fx = (fx["tx_effect_fixtures"][n] for n in ("small", "empty", "maximum"))
three = fx["three_tx_block"]
small = load("effects/small.json")
empty = load("effects/empty.json")
header3 = json.loads(read("chain/header-3.json"))
def ref(path, *patch): return {"$file": path, "patch": [list(p) for p in patch]}
def obj(*pairs): return {"$object": [list(p) for p in pairs]}
SMALL = ref("effects/small.json")
EMPTY = ref("effects/empty.json")
BODY3 = ref("blocks/three-fixtures.json")
HEADER3 = ref("chain/header-3.json")
chain = load("chain/chain.json")
block3 = next(b for b in chain["blocks"] if b["number"] == 3)
block2 = next(b for b in chain["blocks"] if b["number"] == 2)
archive_root = read("chain/archive-root.txt").strip()
archive_witness3 = json.loads(read("chain/archive-witness-3.json"))
node_results = load("typescript/node-results.json")
effects_ts = load("typescript/effects.json")["effects"]

def path_b64(elements):
    raw = len(elements).to_bytes(4, "big") + b"".join(int(e, 16).to_bytes(32, "big") for e in elements)
    return base64.b64encode(raw).decode()

# The node's witness for tx 1 (the small fixture) of block 3, from the upstream vectors.
w1 = three["witnesses"][1]
witness3 = {"blockNumber": 3, "root": three["root"], "categoriesHash": small_fx["categories_hash"],
            "leafIndex": str(w1["leafIndex"]), "siblingPath": path_b64(w1["siblingPath"])}
# An L2Block of block 3 (AZIP-26): the chain's header over the upstream three-tx body.
def l2block3(*extra, body=BODY3, header=HEADER3):
    return obj(("archive", {"root": block3["header"]["lastArchive"]["root"], "nextAvailableLeafIndex": 4}),
               ("header", header), ("body", body), ("checkpointNumber", 3), ("indexWithinCheckpoint", 0), *extra)
# A getTxEffect result for tx 1 of block 3, as the node would print it.
def indexed(*changes, data=SMALL):
    fields = dict([("l2BlockNumber", 3), ("l2BlockHash", block3["hash"]), ("data", data), ("txIndexInBlock", 1)])
    fields.update(dict(changes))
    return obj(*fields.items())
# Category proofs of the small fixture, by hand from its own values.
def proof(category, preimage, element=None):
    p = {"txHash": small_fx["tx_hash"], "txStartMarker": small_fx["tx_start_marker"],
         "transactionFee": small_fx["transaction_fee"], "categoryHashes": small_fx["category_hashes"],
         "category": category, "preimage": preimage}
    if element is not None: p["element"] = element
    return p
nullifier_proof = proof("nullifiers", small["nullifiers"])
public_proof = proof("publicLogs", [h(2), h(200), h(201), h(202)])
def marker(**fields):
    order = [("nh", 16), ("nf", 16), ("msgs", 16), ("writes", 16), ("plogs", 16), ("plen", 16), ("publen", 32), ("ccl", 16), ("revert", 8), ("n", 32)]
    v = 0x9c707518
    for k, w in order: v = (v << w) | fields.get(k, 0)
    return h(v)

chain_docs = {"archiveRoot": archive_root, "archiveWitness": archive_witness3, "header": HEADER3, "witness": witness3}
cases = []
def case(finding, name, operation, inputs, expect, protocol="azip-26"):
    """One case, read under `protocol`'s rules: the chain fixtures were built in the AZIP-26
    reference layout, so that is every case's protocol unless it names another."""
    if "protocol" in inputs:
        protocol = inputs.pop("protocol")
    cases.append({"finding": finding, "name": name, "operation": operation, "protocol": protocol,
                  "inputs": inputs, "expect": expect})
def valid(verdict=None, absent=(), unverified=None):
    e = {"outcome": "valid", "verdict": verdict or {}, "absent": list(absent)}
    if unverified is not None: e["unverified"] = unverified
    return e
def refused(outcome, kind, link=None, message=None):
    e = {"outcome": outcome, "kind": kind}
    if link: e["link"] = link
    if message: e["message"] = message
    return e
def verify_tx(subject, **extra):
    return dict(chain_docs, subject=subject, **extra)
FORGED_SMALL = ref("effects/small.json", ("set", "/nullifiers", [h(0x99)]))

# The genuine chain, for contrast: every fact named.
facts = {"valid": True, "archiveRoot": archive_root, "blockNumber": 3, "blockHash": block3["hash"],
         "txEffectsTreeRoot": three["root"], "txHash": small_fx["tx_hash"], "categoriesHash": small_fx["categories_hash"],
         "leafIndex": "1"}
case("4", "the genuine chain names block, hash, archive root, tx and leaf", "verify-tx",
     verify_tx({"effect": SMALL}), valid(dict(facts, proves="tx"), absent=["unverified", "element"]))

# 1. getTxEffect results: data is the effect; an effect's keys beside it are another shape.
case("1", "a getTxEffect result with the real effect's keys at the top and a forged one in data", "verify-tx",
     verify_tx({"effect": ref("effects/small.json", ("set", "/l2BlockNumber", 3), ("set", "/l2BlockHash", block3["hash"]), ("set", "/data", FORGED_SMALL), ("set", "/txIndexInBlock", 1))}),
     refused("malformed", "Ambiguous"))
case("1", "the same document to witness verify", "witness-verify",
     {"witness": witness3, "root": three["root"], "subject": {"effect": ref("effects/small.json", ("set", "/data", FORGED_SMALL))}},
     refused("malformed", "Ambiguous"))
case("1", "a genuine getTxEffect result verifies, its block checked, its tx index named unverified", "verify-tx",
     verify_tx({"effect": indexed()}), valid(dict(facts, proves="tx"), unverified={"txIndexInBlock": 1}))

# 2. Header documents: a header's own fields beside a nested header and a body.
OTHER_HEADER_WRAPPING = obj(*block2["header"].items(), ("header", HEADER3), ("body", BODY3))
case("2", "header fields of another block beside the real header nested with a body", "verify-tx",
     dict(chain_docs, header=OTHER_HEADER_WRAPPING, subject={"effect": SMALL}),
     refused("malformed", "Ambiguous"))
case("2", "the same document to header hash", "header-hash",
     {"header": OTHER_HEADER_WRAPPING, "protocol": "azip-26"},
     refused("malformed", "Ambiguous"))

# 3. L2Block documents: a body beside the L2Block's body.
smuggled = l2block3(("txEffects", [EMPTY, SMALL]))
case("3", "an L2Block with a smuggled txEffects beside its body: block root", "block-root",
     {"body": smuggled}, refused("malformed", "Ambiguous"))
case("3", "the same: block witness", "block-witness", {"body": smuggled, "tx": "1"}, refused("malformed", "Ambiguous"))
case("3", "the same: block leaves", "block-leaves", {"body": smuggled}, refused("malformed", "Ambiguous"))
case("3", "the same: category prove", "category-prove",
     {"body": smuggled, "tx": "1", "category": "nullifiers"}, refused("malformed", "Ambiguous"))
case("3", "a genuine L2Block: its root and its block number", "block-witness", {"body": l2block3(), "tx": "1"},
     valid({"blockNumber": 3, "root": three["root"], "leafIndex": "1"}))
forged_body = l2block3(body=ref("blocks/three-fixtures.json", ("set", "/txEffects/1", FORGED_SMALL)))
case("3", "an L2Block whose body is not the one its header commits to", "block-root",
     {"body": forged_body}, refused("refuted", "BodyNotInHeader", link="header"))

# 4. Verdicts name what they proved; the caller's expectations and the documents' claims are checked.
case("4", "a getTxEffect result claiming block 999", "verify-tx",
     verify_tx({"effect": indexed(("l2BlockNumber", 999))}), refused("refuted", "Contradicts", link="effect", message="l2BlockNumber"))
case("4", "a getTxEffect result claiming another block hash", "verify-tx",
     verify_tx({"effect": indexed(("l2BlockHash", block2["hash"]))}), refused("refuted", "Contradicts", link="effect", message="l2BlockHash"))
case("4", "a getTxEffect result claiming block 999, against a trusted root alone", "witness-verify",
     {"witness": witness3, "root": three["root"], "subject": {"effect": indexed(("l2BlockNumber", 999))}},
     refused("refuted", "Contradicts", link="effect"))
case("4", "a trusted root alone names no block hash, and lists the claims it leaves unchecked", "witness-verify",
     {"witness": witness3, "root": three["root"], "subject": {"effect": indexed()}},
     valid({"proves": "tx", "txHash": small_fx["tx_hash"], "leafIndex": "1", "txEffectsTreeRoot": three["root"]},
           absent=["blockHash", "archiveRoot", "blockNumber"],
           unverified={"blockNumber": 3, "l2BlockHash": block3["hash"], "l2BlockNumber": 3, "txIndexInBlock": 1}))
case("4", "the block the caller expects, met", "verify-tx",
     verify_tx({"txHash": small_fx["tx_hash"]}, expected={"blockNumber": 3, "blockHash": block3["hash"]}), valid(dict(facts, proves="tx")))
case("4", "another block than the caller expects", "verify-tx",
     verify_tx({"txHash": small_fx["tx_hash"]}, expected={"blockNumber": 4}), refused("refuted", "Contradicts", link="expected"))
case("4", "another block hash than the caller expects", "verify-tx",
     verify_tx({"txHash": small_fx["tx_hash"]}, expected={"blockHash": block2["hash"]}), refused("refuted", "Contradicts", link="expected"))
case("4", "another tx than the caller expects", "verify-tx",
     verify_tx({"effect": SMALL}, expected={"txHash": h(0x4321)}), refused("refuted", "Contradicts", link="expected"))
case("4", "archive verify names the block it proves, from the witness's index", "archive-verify",
     {"root": archive_root, "blockHash": block3["hash"], "witness": archive_witness3},
     valid({"proves": "block", "archiveRoot": archive_root, "blockNumber": 3, "blockHash": block3["hash"]}))
case("4", "archive verify of a header names its block", "archive-verify",
     {"root": archive_root, "header": HEADER3, "witness": archive_witness3},
     valid({"proves": "block", "blockNumber": 3, "blockHash": block3["hash"]}))
case("4", "archive verify of another block than the caller expects", "archive-verify",
     {"root": archive_root, "blockHash": block3["hash"], "witness": archive_witness3, "expected": {"blockNumber": 2}},
     refused("refuted", "Archive/WrongIndex", link="archive", message="block 2 was asked for"))
case("4", "a witness whose root is not the trusted one", "witness-verify",
     {"witness": dict(witness3, root=h(5)), "root": three["root"], "subject": {"txHash": small_fx["tx_hash"]}},
     refused("refuted", "Contradicts", link="witness"))

# 5. Element proofs: by place and role; lengths are never elements, addresses and slots only by their role.
case("5", "a public log's length field claimed as its first field", "category-verify",
     {"proof": (proof("publicLogs", public_proof["preimage"], {"role": "publicLogField", "log": 0, "field": 0, "value": h(2)})),
      "witness": witness3, "root": three["root"]}, refused("refuted", "Proof/ElementMismatch", link="category"))
case("5", "a public log's address claimed as a field", "category-verify",
     {"proof": (proof("publicLogs", public_proof["preimage"], {"role": "publicLogField", "log": 0, "field": 0, "value": h(200)})),
      "witness": witness3, "root": three["root"]}, refused("refuted", "Proof/ElementMismatch", link="category"))
case("5", "a public log's address, under its own role", "category-verify",
     {"proof": (proof("publicLogs", public_proof["preimage"], {"role": "publicLogContractAddress", "log": 0, "value": h(200)})),
      "witness": witness3, "root": three["root"]},
     valid({"proves": "element", "category": "publicLogs", "element": {"role": "publicLogContractAddress", "log": 0, "value": h(200)}}))
case("5", "a public log's field, by log and field", "category-verify",
     {"proof": (proof("publicLogs", public_proof["preimage"], {"role": "publicLogField", "log": 0, "field": 1, "value": h(202)})),
      "witness": witness3, "root": three["root"]},
     valid({"proves": "element", "element": {"role": "publicLogField", "log": 0, "field": 1, "value": h(202)}}))
case("5", "a private log's length field searched as an element", "category-prove",
     {"body": BODY3, "tx": "1", "category": "privateLogs", "element": h(3)}, refused("out-of-range", "Proof/NotInCategory"))
case("5", "a public-data write's leaf slot searched as an element", "category-prove",
     {"body": BODY3, "tx": "1", "category": "publicDataWrites", "element": h(41)}, refused("out-of-range", "Proof/NotInCategory"))
case("5", "a public-data write's leaf slot, under its own role", "category-prove",
     {"body": BODY3, "tx": "1", "category": "publicDataWrites", "element": h(41), "role": "publicDataWriteLeafSlot"},
     valid({"element": {"role": "publicDataWriteLeafSlot", "write": 0, "value": h(41)}}))
case("5", "a contract-class log's address searched as an element", "category-prove",
     {"body": BODY3, "tx": "1", "category": "contractClassLogs", "element": h(77)}, refused("out-of-range", "Proof/NotInCategory"))
case("5", "a role of another category", "category-prove",
     {"body": BODY3, "tx": "1", "category": "nullifiers", "element": h(0x15), "role": "noteHash"}, refused("malformed", "Proof/RoleOfAnotherCategory"))

# 6. Private-log fields past emittedLength: in no blob and no commitment, so never verified.
padded = json.loads(next(e for e in effects_ts if e["name"] == "private log with nonzero fields past emittedLength")["json"])
case("6", "an effect carrying nonzero private-log fields past emittedLength", "witness-verify",
     {"witness": witness3, "root": three["root"], "subject": {"effect": padded}},
     refused("refuted", "Verify/UncommittedFields", link="tx"))

# 7. An L2Block as --header: its body is checked against the header's root.
case("7", "an L2Block as the header, its body forged", "verify-tx",
     dict(chain_docs, header=forged_body, subject={"effect": SMALL}), refused("refuted", "BodyNotInHeader", link="header"))
case("7", "an L2Block as the header, its body genuine", "verify-tx",
     dict(chain_docs, header=l2block3(), subject={"effect": SMALL}), valid(dict(facts, proves="tx")))

# 8. txfx's own formats refuse unknown keys.
case("8", "a category proof with an extra elements key", "category-verify",
     {"proof": (dict(nullifier_proof, elements=[{"role": "nullifier", "index": 0, "value": h(0x99)}])),
      "witness": witness3, "root": three["root"]}, refused("malformed", "Malformed/UnknownKey"))
stored = {"blockNumber": 3, "txEffectsTreeRoot": three["root"], "txs": [
    {"txHash": f["tx_hash"], "categoriesHash": f["categories_hash"], "leaf": f["leaf"]} for f in (empty_fx, small_fx, max_fx)]}
case("8", "stored leaves with an extra key", "tree-root", {"leaves": dict(stored, verified=True)}, refused("malformed", "Malformed/UnknownKey"))

# Work bounds: refused from what the input claims, before the work.
case("bounds", "a category proof whose marker claims 65535 nullifiers", "category-verify",
     {"proof": (dict(nullifier_proof, txStartMarker=marker(nf=65535, n=65538))), "witness": witness3, "root": three["root"]},
     refused("refuted", "Proof/Section/Limit", link="category"))
case("bounds", "a category proof whose marker claims a public-log payload near 2^32", "category-verify",
     {"proof": (dict(public_proof, txStartMarker=marker(publen=2 ** 32 - 2, n=2 ** 32 - 1))), "witness": witness3, "root": three["root"]},
     refused("refuted", "Proof/Section/Limit", link="category"))
case("bounds", "bare leaves past the most a block holds", "tree-root",
     {"leaves": {"$repeat": [h(1), 65537]}}, refused("out-of-range", "Malformed/TooMany", message="65536"))
case("bounds", "blob fields past six blobs", "checkpoint-decode",
     {"fields": {"$repeat": [h(0), 6 * 4096 + 1]}}, refused("out-of-range", "Malformed/TooMany", message="24576"))

# Hardening.
case("hardening", "a contract-class log longer than 3023 fields, in a proof's marker", "category-verify",
     {"proof": obj(*[(k, v) for k, v in dict(proof("contractClassLogs", []), txStartMarker=marker(ccl=3024, n=3028)).items() if k != "preimage"], ("preimage", {"$repeat": [h(1), 3025]})), "witness": witness3, "root": three["root"]},
     refused("refuted", "Proof/Section/Limit", link="category"))
case("hardening", "--categories-hash other than the witness's", "witness-verify",
     {"witness": witness3, "root": three["root"], "subject": {"txHash": small_fx["tx_hash"], "categoriesHash": h(5)}},
     refused("refuted", "Verify/CategoriesHashMismatch", link="tx"))
case("hardening", "a header whose coinbase has a plus sign", "header-hash",
     {"header": ref("chain/header-3.json", ("set", "/globalVariables/coinbase", "0x+f" + header3["globalVariables"]["coinbase"][4:])), "protocol": "azip-26"},
     refused("malformed", "Malformed/BadValue", message="coinbase"))
case("hardening", "an archive witness index past the height-30 tree", "archive-verify",
     {"root": archive_root, "blockHash": block3["hash"], "witness": {"leafIndex": 2 ** 30 + 3, "siblingPath": block3["archiveWitness"]["siblingPath"]}, "expected": {"blockNumber": 3}},
     refused("refuted", "Archive/IndexBeyondTree", link="archive", message="beyond the archive tree"))
case("hardening", "an archive witness that is neither JSON nor base64", "archive-verify",
     {"root": archive_root, "blockHash": block3["hash"], "witness": {"$text": "{\"result\": AAAA"}}, refused("malformed", "Malformed/Syntax", message="line 1"))
case("hardening", "a root in decimal", "witness-verify",
     {"witness": witness3, "root": str(int(three["root"], 16)), "subject": {"txHash": small_fx["tx_hash"]}},
     refused("malformed", "Field/MissingHexPrefix", message="missing 0x"))
case("hardening", "a witness block number above 2^32", "witness-verify",
     {"witness": dict(witness3, blockNumber=2 ** 53), "root": three["root"], "subject": {"txHash": small_fx["tx_hash"]}},
     refused("out-of-range", "Malformed/Number", message="blockNumber"))
case("hardening", "a stored block's error names the stored block", "tree-root",
     {"leaves": dict(stored, txs="none")}, refused("malformed", "Malformed/WrongType", message="stored block"))

# 27. One reading, second round (issue 27). Each case failed before: it was read as something
# TypeScript (JSON.parse, then zod) does not read, or worked before it was bounded.
def as_array(value):
    """The serde sequence form of an object: its values in order (TypeScript's z.object refuses it)."""
    return list(value.values())
three_body = load("blocks/three-fixtures.json")
small_arr = as_array(small)
SAFE_PLUS_2 = 2 ** 53 + 1   # 9007199254740993: JSON.parse reads 9007199254740992

# Arrays are not objects.
case("27/arrays", "an effect given as the array of its values", "verify-tx",
     verify_tx({"effect": small_arr}), refused("malformed", "Malformed/WrongType", message="got an array"))
case("27/arrays", "the same effect to witness verify", "witness-verify",
     {"witness": witness3, "root": three["root"], "subject": {"effect": small_arr}},
     refused("malformed", "Malformed/WrongType", message="got an array"))
case("27/arrays", "a body of effects given as arrays", "block-root",
     {"body": [as_array(e) for e in three_body["txEffects"]]}, refused("malformed", "Malformed/WrongType", message="[0]"))
case("27/arrays", "a header whose lastArchive is [root, index]", "header-hash",
     {"header": ref("chain/header-3.json", ("set", "/lastArchive", as_array(header3["lastArchive"]))), "protocol": "azip-26"},
     refused("malformed", "Malformed/WrongType", message="lastArchive"))
case("27/arrays", "a header whose gasFees are an array", "header-hash",
     {"header": ref("chain/header-3.json", ("set", "/globalVariables/gasFees", as_array(header3["globalVariables"]["gasFees"]))), "protocol": "azip-26"},
     refused("malformed", "Malformed/WrongType", message="gasFees"))
case("27/arrays", "a public data write as [slot, value]", "effect-hash",
     {"effect": ref("effects/small.json", ("set", "/publicDataWrites", [as_array(w) for w in small["publicDataWrites"]]))},
     refused("malformed", "Malformed/WrongType", message="publicDataWrites[0]"))
case("27/arrays", "a private log as [fields, emittedLength]", "effect-hash",
     {"effect": ref("effects/small.json", ("set", "/privateLogs", [as_array(l) for l in small["privateLogs"]]))},
     refused("malformed", "Malformed/WrongType", message="privateLogs[0]"))
case("27/arrays", "a public log as [address, fields]", "effect-hash",
     {"effect": ref("effects/small.json", ("set", "/publicLogs", [as_array(l) for l in small["publicLogs"]]))},
     refused("malformed", "Malformed/WrongType", message="publicLogs[0]"))
case("27/arrays", "stored txs as [txHash, categoriesHash, leaf]", "tree-root",
     {"leaves": dict(stored, txs=[as_array(t) for t in stored["txs"]])}, refused("malformed", "Malformed/WrongType", message="txs[0]"))
case("27/arrays", "a witness as the array of its values", "witness-verify",
     {"witness": as_array(witness3), "root": three["root"], "subject": {"effect": SMALL}},
     refused("malformed", "Malformed/WrongType", message="got an array"))

# JSON numbers are what JavaScript reads: at most 2^53 - 1; larger values as decimal strings,
# where the schema takes one.
case("27/numbers", "a header whose timestamp is the JSON number 2^53 + 1", "header-hash",
     {"header": ref("chain/header-3.json", ("set", "/globalVariables/timestamp", SAFE_PLUS_2)), "protocol": "azip-26"},
     refused("out-of-range", "Malformed/Number", message="2^53"))
case("27/numbers", "the same header in a chain", "verify-tx",
     dict(chain_docs, header=ref("chain/header-3.json", ("set", "/globalVariables/timestamp", SAFE_PLUS_2)), subject={"effect": SMALL}),
     refused("out-of-range", "Malformed/Number", message="timestamp"))
case("27/numbers", "the same timestamp as a decimal string is read exactly", "header-hash",
     {"header": ref("chain/header-3.json", ("set", "/globalVariables/timestamp", str(SAFE_PLUS_2))), "protocol": "azip-26"},
     valid({}))
case("27/numbers", "a gas fee as a JSON number above 2^53 - 1", "header-hash",
     {"header": ref("chain/header-3.json", ("set", "/globalVariables/gasFees/feePerL2Gas", 2 ** 60)), "protocol": "azip-26"},
     refused("out-of-range", "Malformed/Number", message="feePerL2Gas"))
case("27/numbers", "a gas fee of 128 bits as a decimal string is read exactly", "header-hash",
     {"header": ref("chain/header-3.json", ("set", "/globalVariables/gasFees/feePerL2Gas", str(2 ** 128 - 1))), "protocol": "azip-26"},
     valid({}))
case("27/numbers", "a witness leafIndex as the JSON number 2^53 + 1", "witness-verify",
     {"witness": dict(witness3, leafIndex=SAFE_PLUS_2), "root": three["root"], "subject": {"effect": SMALL}},
     refused("out-of-range", "Malformed/Number", message="leafIndex"))
# txIndexInBlock is schemas.Integer: coerced to a JavaScript number, so inexact above 2^53 - 1
# in any form.
case("27/numbers", "a getTxEffect txIndexInBlock of 2^53 + 1 as a decimal string", "verify-tx",
     verify_tx({"effect": indexed(("txIndexInBlock", str(SAFE_PLUS_2)))}),
     refused("out-of-range", "Malformed/Number", message="txIndexInBlock"))

# One document, one reading, whatever command reads it.
both = dict(small, txEffects=[empty])
case("27/shapes", "an effect's keys beside txEffects: effect hash", "effect-hash", {"effect": both}, refused("malformed", "Ambiguous"))
case("27/shapes", "the same: block root", "block-root", {"body": both}, refused("malformed", "Ambiguous"))
case("27/shapes", "the same: block encode-blob", "blob-encode", {"document": both}, refused("malformed", "Ambiguous"))
case("27/shapes", "the same: the subject of a chain", "verify-tx", verify_tx({"effect": both}), refused("malformed", "Ambiguous"))
case("27/shapes", "an effect given as a body says what it is", "block-root", {"body": SMALL},
     refused("malformed", "Malformed/OtherKind", message="this is a tx effect, not a body"))
case("27/shapes", "a body given as an effect says what it is", "effect-hash", {"effect": BODY3},
     refused("malformed", "Malformed/OtherKind", message="this is a body, not a tx effect"))
case("27/shapes", "a batch of JSON-RPC answers where one is read", "block-root",
     {"body": [{"jsonrpc": "2.0", "id": 1, "result": BODY3}]}, refused("malformed", "Rpc/Batch", message="batch"))
case("27/shapes", "a JSON-RPC answer with a result and a null error", "archive-verify",
     {"root": archive_root, "blockHash": block3["hash"],
      "witness": {"jsonrpc": "2.0", "id": 1, "result": archive_witness3["result"], "error": None}},
     refused("malformed", "Rpc/ResultAndError", message="only one"))

# A tx hash that occurs twice in a block selects neither tx; an index still does.
dup = small_fx["tx_hash"]
assert max_fx["tx_hash"] == dup, "the bundled block repeats the small fixture's tx hash"
case("27/tx-hash", "block witness by a repeated tx hash", "block-witness", {"body": l2block3(), "tx": dup},
     refused("malformed", "TxLookup/Repeated", message="select the tx by its index"))
case("27/tx-hash", "block witness of the same tx by its index", "block-witness", {"body": l2block3(), "tx": "2"},
     valid({"blockNumber": 3, "root": three["root"], "leafIndex": str(three["witnesses"][2]["leafIndex"])}))
case("27/tx-hash", "category prove by a repeated tx hash", "category-prove",
     {"body": BODY3, "tx": dup, "category": "nullifiers"}, refused("malformed", "TxLookup/Repeated"))
case("27/tx-hash", "tree witness from stored leaves by a repeated tx hash", "tree-witness",
     {"leaves": stored, "tx": dup}, refused("malformed", "TxLookup/Repeated"))
case("27/tx-hash", "tree witness from bare leaves by a tx hash", "tree-witness",
     {"leaves": three["leaves"], "tx": empty_fx["tx_hash"], "blockNumber": 3},
     refused("malformed", "TxLookup/NoTxHashes", message="bare leaves carry no tx hashes"))

# Work is bounded before it starts: a list is read no further than one past its cap, so what
# follows the cap is never read (a number there would be a wrong type, were it read).
case("27/bounds", "65 nullifiers, the 65th not a string", "effect-hash",
     {"effect": ref("effects/small.json", ("set", "/nullifiers", [h(i + 1) for i in range(64)] + [7]))},
     refused("out-of-range", "Malformed/TooMany", message="nullifiers"))
case("27/bounds", "a private log of 17 fields, the 17th not a string", "effect-hash",
     {"effect": ref("effects/small.json", ("set", "/privateLogs/0/fields", [h(1)] * 16 + [7]))},
     refused("out-of-range", "Malformed/TooMany", message="privateLogs[0].fields"))
case("27/bounds", "a public log of 4094 fields, the most one holds, is read", "effect-hash",
     {"effect": ref("effects/small.json", ("set", "/publicLogs/0/fields", {"$repeat": [h(1), 4094]}))},
     valid({}))
case("27/bounds", "a body of 65537 numbers is refused by its count before any is read", "block-root",
     {"body": {"$repeat": [1, 65537]}}, refused("out-of-range", "Malformed/TooMany", message="65536"))

# Errors say what is wrong, briefly, and are the kind they claim.
case("27/errors", "a nullifier of 100000 hex digits is named by its length, not printed", "effect-hash",
     {"effect": ref("effects/small.json", ("set", "/nullifiers", ["0x" + "1" * 100000]))},
     refused("malformed", "Field/TooManyDigits", message="100000 hex digits"))
case("27/errors", "a tx hash of 100000 characters is quoted by its head and length", "effect-hash",
     {"effect": ref("effects/small.json", ("set", "/txHash", "0x" + "1" * 100000))},
     refused("malformed", "Malformed/BadValue", message="(100002 bytes)"))
case("27/errors", "an over-long archive witness counts the bytes it has", "archive-verify",
     {"root": archive_root, "blockHash": block3["hash"], "witness": "A" * 2000},
     refused("malformed", "ArchiveWitness/WrongByteLength", message="1500 bytes"))
blob3 = load("blocks/three-fixtures.blob.json")
tx1 = int(blob3[0], 16) & 0xffffffff   # tx 0's marker: its numBlobFields is where tx 1 starts
case("27/errors", "a block blob whose second tx has no marker: one offset for the field", "block-decode-blob",
     {"fields": blob3[:tx1] + [h(5)] + blob3[tx1 + 1:]},
     refused("malformed", "Blob/Tx/NotAMarker", message="tx 1 (its marker at offset %d): the field at offset %d is not" % (tx1, tx1)))

os.makedirs(os.path.join(root, "adversarial"), exist_ok=True)
with open(os.path.join(root, "adversarial", "catalogue.json"), "w") as f:
    json.dump({"note": "generated by tools/make_adversarial.py; outcomes chosen by hand from docs/spec.md §12.8-12.9", "cases": cases}, f, indent=1)
    f.write("\n")
print(len(cases), "cases")

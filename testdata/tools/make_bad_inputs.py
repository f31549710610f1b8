#!/usr/bin/env python3
"""Write testdata/bad-inputs/catalogue.json: malformed inputs for every entry point, each with the
error kind it must produce (chosen by hand here, from docs/spec.md's rules, not from txfx's output).
Kinds are the error enum's variant names; a nested kind is "Outer/Inner". A document that is not
the JSON its reader takes is "Malformed/<what>": Syntax (not JSON), WrongType (an array where an
object is read, a number for a string), MissingKey, DuplicateKey, UnknownKey (txfx's strict formats),
TooMany (a list past its cap: reading stops there), Count (a list of another exact length), Number
(a negative, fractional or too large number, a JSON number above 2^53 - 1, a string that is not
decimal digits), BadValue (a string not of its key's form), OtherKind (a document of another kind)."""
import base64, copy, json, os

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)
small = json.load(open(os.path.join(root, "effects", "small.json")))
P = "0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001"
def h(x): return "0x%064x" % x
cases = []
def case(name, entry, error, protocol="azip-26", **kw):
    """One case, read under `protocol`'s rules (the catalogue was written for the AZIP-26
    reference layout and 4.1.2's rules, so that is every case's unless it names another)."""
    if "layout" in kw:
        protocol = kw.pop("layout")
    cases.append(dict(name=name, entry=entry, error=error, protocol=protocol, **kw))

# Field parsing (the CLI's arguments, decimal or hex).
for name, text, err in [
    ("empty string", "", "Empty"), ("bare 0x", "0x", "Empty"), ("hex digit g", "0x12g4", "InvalidDigit"),
    ("minus sign", "-1", "InvalidDigit"), ("space inside", "12 3", "InvalidDigit"), ("unicode digit", "١٢", "InvalidDigit"),
    ("65 hex digits", "0x" + "0" * 65, "TooManyDigits"), ("79 decimal digits", "1" * 79, "TooManyDigits"),
    ("the modulus", P, "NotCanonical"), ("modulus in decimal",
     "21888242871839275222246405745257275088548364400416034343698204186575808495617", "NotCanonical"),
    ("2^256 in decimal", "115792089237316195423570985008687907853269984665640564039457584007913129639936", "NotCanonical"),
    ("all ones", "0x" + "f" * 64, "NotCanonical")]:
    case("field: " + name, "field", err, input=text)

def effect(mutate):
    e = copy.deepcopy(small); mutate(e); return e
def setk(k, v): return lambda e: e.__setitem__(k, v)
for name, mut, err in [
    # Unknown keys are ignored as TypeScript's schemas ignore them, except in a private log.
    ("unknown key in a private log", lambda e: e["privateLogs"][0].__setitem__("extra", 1), "Malformed/UnknownKey"),
    ("missing txHash", lambda e: e.pop("txHash"), "Malformed/MissingKey"),
    # Decimal strings are fields (TypeScript's Fr.fromString); hex without 0x is not.
    ("hex field without 0x", setk("transactionFee", "2a"), "Field/InvalidDigit"),
    ("upper-case 0X prefix", setk("transactionFee", "0X2a"), "Field/InvalidDigit"),
    ("txHash of 2 bytes", setk("txHash", "0x1234"), "Malformed/BadValue"),
    ("revert code as a string", setk("revertCode", "1"), "Malformed/WrongType"),
    ("nested contract-class log of 2 fields", lambda e: e["contractClassLogs"][0].__setitem__("fields", {"fields": [h(301), h(302)]}), "Malformed/Count"),
    ("number as field", setk("transactionFee", 42), "Malformed/WrongType"),
    ("note hash >= p", setk("noteHashes", [P]), "Field/NotCanonical"),
    ("revert code 4", setk("revertCode", 4), "Invalid/InvalidRevertCode"),
    ("negative revert code", setk("revertCode", -1), "Malformed/Number"),
    ("65 note hashes", setk("noteHashes", [h(i + 1) for i in range(65)]), "Malformed/TooMany"),
    ("9 messages", setk("l2ToL1Msgs", [h(i + 1) for i in range(9)]), "Malformed/TooMany"),
    ("zero nullifier", setk("nullifiers", [h(0)]), "Invalid/ZeroValue"),
    ("zero message", setk("l2ToL1Msgs", [h(5), h(0)]), "Invalid/ZeroValue"),
    ("empty public data write", setk("publicDataWrites", [{"leafSlot": h(0), "value": h(0)}]), "Invalid/EmptyPublicDataWrite"),
    ("private log emittedLength 0", lambda e: e["privateLogs"][0].__setitem__("emittedLength", 0), "Invalid/LogLength"),
    ("private log emittedLength 17", lambda e: e["privateLogs"][0].__setitem__("emittedLength", 17), "Invalid/LogLength"),
    ("private log fields short of its length", lambda e: e["privateLogs"][0].__setitem__("fields", [h(1)]), "Invalid/LogFieldsShorterThanLength"),
    ("private log with 17 fields", lambda e: e["privateLogs"][0].__setitem__("fields", [h(1)] * 17), "Malformed/TooMany"),
    ("public log of 4095 fields", setk("publicLogs", [{"contractAddress": h(1), "fields": [h(1)] * 4095}]), "Malformed/TooMany"),
    ("public logs over 4096", setk("publicLogs", [{"contractAddress": h(1), "fields": [h(1)] * 3000}] * 2), "Invalid/PublicLogsPayloadTooLong"),
    ("two contract class logs", lambda e: e["contractClassLogs"].append({"contractAddress": h(2), "fields": {"fields": [h(3)] + [h(0)] * 3022}, "emittedLength": 1}), "Malformed/TooMany"),
    # TypeScript's schema reads only the nested form, and every key: txfx reads nothing it refuses.
    ("contract class log fields flat", lambda e: e["contractClassLogs"][0].__setitem__("fields", [h(301), h(302)]), "Malformed/WrongType"),
    ("missing noteHashes", lambda e: e.pop("noteHashes"), "Malformed/MissingKey"),
    ("missing emittedLength", lambda e: e["contractClassLogs"][0].pop("emittedLength"), "Malformed/MissingKey"),
    ("a getTxEffect result is not an effect", lambda e: e.clear() or e.update({"l2BlockNumber": 1, "l2BlockHash": h(1), "data": small, "txIndexInBlock": 0}), "Malformed/MissingKey"),
    ("contract class log emittedLength 0", lambda e: e["contractClassLogs"][0].__setitem__("emittedLength", 0), "Invalid/LogLength"),
    ("contract class log nonzero padding", lambda e: e["contractClassLogs"][0]["fields"]["fields"].__setitem__(2, h(1)), "Invalid/LogPaddingNotZero"),
    ("contract class log nested with 3022 fields", lambda e: e["contractClassLogs"][0]["fields"]["fields"].pop(), "Malformed/Count"),
    ("contract class log nested with 3024 fields", lambda e: e["contractClassLogs"][0].update(fields={"fields": [h(1)] * 3024}, emittedLength=3024), "Malformed/TooMany"),
]:
    case("effect json: " + name, "effect-json", err, input=json.dumps(effect(mut)))
case("effect json: not JSON", "effect-json", "Malformed/Syntax", input="{\"revertCode\":")
case("effect json: array", "effect-json", "Malformed/WrongType", input="[]")
case("body json: second tx bad", "body-json", "Invalid/ZeroValue", input=json.dumps([small, effect(setk("noteHashes", [h(0)]))]))
case("body json: wrong wrapper key", "body-json", "Malformed/MissingKey", input=json.dumps({"effects": [small]}))
case("body json: string", "body-json", "Malformed/WrongType", input="\"txEffects\"")

blob = json.load(open(os.path.join(root, "aztec-fixtures.json")))["tx_effect_fixtures"]["small"]["blob_fields"]
def b(mut):
    x = list(blob); mut(x); return x
def marker(**fields):
    # Build a marker from counts (docs/spec.md §5.2); used only to state malformed inputs.
    order = [("nh", 16), ("nf", 16), ("msgs", 16), ("writes", 16), ("plogs", 16), ("plen", 16), ("publen", 32), ("ccl", 16), ("revert", 8), ("n", 32)]
    v = 0x9c707518
    for k, w in order: v = (v << w) | fields.get(k, 0)
    return h(v)
for name, fields, err in [
    ("first field 12", b(lambda x: x.__setitem__(0, h(12))), "Tx/NotAMarker"),
    ("one field missing", blob[:-1], "Tx/Truncated"),
    ("trailing junk after the tx", blob + [h(7)], "Tx/NotAMarker"),
    ("marker says one field more", b(lambda x: x.__setitem__(0, marker(nh=2, nf=1, msgs=1, writes=1, plogs=1, plen=3, publen=4, ccl=2, revert=1, n=21))) + [h(0)], "Tx/LengthMismatch"),
    ("private log length 17", b(lambda x: x.__setitem__(9, h(17))), "Tx/BadLength"),
    ("private log length sum disagrees", b(lambda x: x.__setitem__(9, h(2))), "Tx/PrivateLogsLengthMismatch"),
    ("public log length past payload", b(lambda x: x.__setitem__(13, h(3))), "Tx/BadLength"),
    ("revert code 4", b(lambda x: x.__setitem__(0, marker(nh=2, nf=1, msgs=1, writes=1, plogs=1, plen=3, publen=4, ccl=2, revert=4, n=20))), "Tx/Invalid/InvalidRevertCode"),
    ("zero note hash", b(lambda x: x.__setitem__(3, h(0))), "Tx/Invalid/ZeroValue"),
    ("65535 note hashes claimed over 3 fields", [marker(nh=65535, n=65538), h(1), h(2)], "Tx/Truncated"),
    # A consistent marker over the protocol's limits: refused from the marker, before any read.
    ("65 nullifiers in a consistent marker", [marker(nf=65, n=68)] + [h(i + 1) for i in range(67)], "Tx/Limit"),
    ("high bits above the marker", b(lambda x: x.__setitem__(0, "0x01" + blob[0][4:])), "Tx/NotAMarker"),
]:
    case("blob: " + name, "blob", err, input=fields)

ex = json.load(open(os.path.join(root, "aztec-fixtures.json")))["witness_json_example"]["json"]
def w(mut):
    x = copy.deepcopy(ex); mut(x); return json.dumps(x)
def path(n_declared, n_actual, element=b"\x00" * 32):
    return base64.b64encode(n_declared.to_bytes(4, "big") + element * n_actual).decode()
for name, text, err in [
    ("not an object", "[1]", "Malformed/WrongType"), ("truncated JSON", "{\"root\":", "Malformed/Syntax"),
    ("unknown key", w(lambda x: x.__setitem__("txHash", "0x01")), "Malformed/UnknownKey"),
    ("missing root", w(lambda x: x.pop("root")), "Malformed/MissingKey"),
    ("missing siblingPath", w(lambda x: x.pop("siblingPath")), "Malformed/MissingKey"),
    ("root >= p", w(lambda x: x.__setitem__("root", P)), "Field/NotCanonical"),
    ("categoriesHash not hex", w(lambda x: x.__setitem__("categoriesHash", "12")), "Field/MissingHexPrefix"),
    ("blockNumber 2^53", w(lambda x: x.__setitem__("blockNumber", 2 ** 53)), "Malformed/Number"),
    ("blockNumber negative", w(lambda x: x.__setitem__("blockNumber", -1)), "Malformed/Number"),
    ("leafIndex not a number", w(lambda x: x.__setitem__("leafIndex", "one")), "Malformed/Number"),
    ("leafIndex over 64 bits", w(lambda x: x.__setitem__("leafIndex", "18446744073709551616")), "Malformed/Number"),
    ("siblingPath not base64", w(lambda x: x.__setitem__("siblingPath", "***")), "NotBase64"),
    ("siblingPath prefix over 128", w(lambda x: x.__setitem__("siblingPath", path(129, 0))), "SiblingPath/TooLong"),
    ("siblingPath prefix 2^32-1", w(lambda x: x.__setitem__("siblingPath", path(2 ** 32 - 1, 1))), "SiblingPath/TooLong"),
    ("siblingPath shorter than prefix", w(lambda x: x.__setitem__("siblingPath", path(2, 1))), "SiblingPath/Length"),
    ("siblingPath longer than prefix", w(lambda x: x.__setitem__("siblingPath", path(1, 2))), "SiblingPath/Length"),
    ("siblingPath without prefix", w(lambda x: x.__setitem__("siblingPath", "AAA=")), "SiblingPath/NoPrefix"),
    ("siblingPath element >= p", w(lambda x: x.__setitem__("siblingPath", path(1, 1, b"\xff" * 32))), "Field/NotCanonical"),
    ("siblingPath Buffer with bad byte", w(lambda x: x.__setitem__("siblingPath", {"type": "Buffer", "data": [0, 0, 0, 256]})), "Malformed/Number"),
]:
    case("witness json: " + name, "witness-json", err, input=text)

three = json.load(open(os.path.join(root, "aztec-fixtures.json")))["three_tx_block"]
good = dict(ex)
for name, witness, verify, err in [
    ("wrong trusted root", good, {"root": h(1), "txHash": h(0)}, "RootMismatch"),
    ("other tx hash", good, {"root": three["root"], "txHash": h(0x1234)}, "RootMismatch"),
    ("flipped side", dict(good, leafIndex="1"), {"root": three["root"], "txHash": h(0)}, "RootMismatch"),
    ("high leafIndex bits", dict(good, leafIndex="4"), {"root": three["root"], "txHash": h(0)}, "Path/LeafIndexOutOfRange"),
    ("path of 17", dict(good, siblingPath=path(17, 17)), {"root": three["root"], "txHash": h(0)}, "Path/TooLong"),
    ("no categories hash anywhere", {k: v for k, v in good.items() if k != "categoriesHash"}, {"root": three["root"], "txHash": h(0)}, "MissingCategoriesHash"),
    # A categories hash given beside the witness's own must be the same: a conflict is refused.
    ("categories hash other than the witness's", good, {"root": three["root"], "txHash": h(0), "categoriesHash": h(5)}, "CategoriesHashMismatch"),
    ("wrong categories hash", {k: v for k, v in good.items() if k != "categoriesHash"}, {"root": three["root"], "txHash": h(0), "categoriesHash": h(5)}, "RootMismatch"),
    ("effect whose categories hash differs", good, {"root": three["root"], "effect": "effects/small.json"}, "CategoriesHashMismatch"),
]:
    case("verify: " + name, "verify", err, input=json.dumps(witness), verify=verify)

# Checkpoint blob fields (docs/spec.md §12.2), corrupting a checkpoint @aztec/blob-lib encoded
# (testdata/typescript/checkpoints.json). Kinds: CheckpointDecodeError variants; "Tx/<BlobError>" for
# a tx that does not decode.
BLOCK_END_PREFIX, CHECKPOINT_END_PREFIX = 3951939007, 2355328067
ts = json.load(open(os.path.join(root, "typescript", "checkpoints.json")))["checkpoints"]
two = next(c for c in ts if c["name"] == "2 blocks, the second empty")
F = [int(x, 16) for x in two["blobFields"]]
b0 = next(i for i, f in enumerate(F) if f >> 112 == BLOCK_END_PREFIX)
assert F[-1] >> 32 == CHECKPOINT_END_PREFIX and F[0] >> 184 == 0x9C707518
def fields(xs): return [h(x) for x in xs]
def with_(i, v): xs = list(F); xs[i] = v; return xs
for name, xs, err in [
    ("empty", [], "Empty"),
    ("no checkpoint-end marker", F[:-1], "MissingCheckpointEnd"),
    ("numBlobFields one more", with_(len(F) - 1, F[-1] + 1), "NumBlobFieldsMismatch"),
    ("numBlobFields one fewer", with_(len(F) - 1, F[-1] - 1), "NumBlobFieldsMismatch"),
    ("nonzero field in the zero tail", F + [0, 0, 1, 0], "NonzeroTail"),
    ("zero tail past six blobs", F + [0] * (6 * 4096 + 1 - len(F)), "TooLong"),
    ("numTxs one more", with_(b0, F[b0] + 1), "NumTxsMismatch"),
    ("numTxs one fewer", with_(b0, F[b0] - 1), "NumTxsMismatch"),
    ("block-end data cut short", F[:b0 + 3], "TruncatedBlockEnd"),
    ("fields end before any block-end marker", F[:b0], "MissingBlockEnd"),
    ("fields end inside a tx", F[:5], "Tx/Truncated"),
    ("state field wider than 208 bits", with_(b0 + 1, F[b0 + 1] + (1 << 208)), "BadStateField"),
    ("only a checkpoint-end marker", [(CHECKPOINT_END_PREFIX << 32) | 1], "Tx/NotAMarker"),
    ("end marker with a high bit set", with_(len(F) - 1, F[-1] + (1 << 64)), "Tx/NotAMarker"),
    ("first block without l1ToL2MessageRoot", F[:b0 + 6] + F[b0 + 7:], "Tx/NotAMarker"),
    ("tx marker numBlobFields one more", with_(0, F[0] + 1), "Tx/LengthMismatch"),
    ("garbage where the next block starts", F[:b0 + 7] + [5] + F[b0 + 7:], "Tx/NotAMarker"),
]:
    case("checkpoint: " + name, "checkpoint", err, input=fields(xs))

# Checkpoint JSON (`txfx checkpoint encode`), from what blob-lib decoded.
D = two["decoded"]
def cj(mut):
    x = copy.deepcopy(D); mut(x); return json.dumps(x)
def blk(i, k, v): return lambda x: x["blocks"][i].__setitem__(k, v)
def state(i, k, v): return lambda x: x["blocks"][i]["state"].__setitem__(k, v)
first_nullifier_zero = lambda x: x["blocks"][0]["body"]["txEffects"][0]["nullifiers"].__setitem__(0, h(0))
for name, text, err in [
    ("numTxs disagrees", cj(blk(0, "numTxs", 5)), "InBlock/Disagrees"),
    ("indexWithinCheckpoint disagrees", cj(blk(1, "indexWithinCheckpoint", 0)), "InBlock/Disagrees"),
    ("numBlobFields disagrees", cj(lambda x: x.__setitem__("numBlobFields", 7)), "Disagrees"),
    ("l1ToL2MessageRoot on the second block", cj(blk(1, "l1ToL2MessageRoot", h(1))), "Checkpoint/L1ToL2MessageRoot"),
    ("no l1ToL2MessageRoot on the first block", cj(lambda x: x["blocks"][0].pop("l1ToL2MessageRoot")), "Checkpoint/L1ToL2MessageRoot"),
    ("no blocks", cj(lambda x: x.__setitem__("blocks", [])), "Checkpoint/NoBlocks"),
    ("l1-to-l2 index of 37 bits", cj(state(0, "l1ToL2MessageNextAvailableLeafIndex", 2 ** 36)), "Checkpoint/StateOutOfRange"),
    ("totalManaUsed of 49 bits", cj(state(0, "totalManaUsed", str(2 ** 48))), "Checkpoint/StateOutOfRange"),
    ("blockNumber of 33 bits", cj(blk(0, "blockNumber", 2 ** 32)), "Malformed/Number"),
    ("timestamp of 65 bits", cj(blk(0, "timestamp", str(2 ** 64))), "Malformed/Number"),
    ("negative timestamp", cj(blk(0, "timestamp", "-1")), "Malformed/Number"),
    ("hex timestamp", cj(blk(0, "timestamp", "0x10")), "Malformed/Number"),
    ("root >= p", cj(blk(0, "noteHashRoot", P)), "Field/NotCanonical"),
    ("no body", cj(lambda x: x["blocks"][0].pop("body")), "Malformed/MissingKey"),
    ("a zero nullifier in a body", cj(first_nullifier_zero), "InBlock/Invalid/ZeroValue"),
]:
    case("checkpoint json: " + name, "checkpoint-json", err, input=text)

# Stored leaves (`txfx tree witness`), built from the upstream fixtures' tx hashes, categories
# hashes and leaves, and the three-tx block's root.
fx = json.load(open(os.path.join(root, "aztec-fixtures.json")))
three_root = fx["three_tx_block"]["root"]
def stx(name):
    t = fx["tx_effect_fixtures"][name]
    return {"txHash": t["tx_hash"], "categoriesHash": t["categories_hash"], "leaf": t["leaf"]}
stored = {"blockNumber": 7, "txEffectsTreeRoot": three_root, "txs": [stx("empty"), stx("small"), stx("maximum")]}
assert fx["three_tx_block"]["leaves"] == [t["leaf"] for t in stored["txs"]]
def st(mut):
    x = copy.deepcopy(stored); mut(x); return json.dumps(x)
for name, text, err in [
    ("wrong root", st(lambda x: x.__setitem__("txEffectsTreeRoot", h(1))), "RootMismatch"),
    ("txs swapped", st(lambda x: x["txs"].reverse()), "RootMismatch"),
    ("a leaf of another tx", st(lambda x: x["txs"][1].__setitem__("leaf", x["txs"][2]["leaf"])), "LeafMismatch"),
    ("a wrong categories hash", st(lambda x: x["txs"][0].__setitem__("categoriesHash", h(9))), "LeafMismatch"),
    ("a tx without its leaf", st(lambda x: x["txs"][0].pop("leaf")), "Malformed/MissingKey"),
    ("block number above 2^53-1", st(lambda x: x.__setitem__("blockNumber", 2 ** 53)), "Malformed/Number"),
    ("block number of 33 bits", st(lambda x: x.__setitem__("blockNumber", 2 ** 32)), "Malformed/Number"),
    # txfx's own format is strict: a key it would not read is refused, never skipped.
    ("an unknown key", st(lambda x: x.__setitem__("leaves", [])), "Malformed/UnknownKey"),
    ("an unknown key in a tx", st(lambda x: x["txs"][0].__setitem__("index", 0)), "Malformed/UnknownKey"),
    ("a leaf >= p", st(lambda x: x["txs"][0].__setitem__("leaf", P)), "Field/NotCanonical"),
]:
    case("stored leaves: " + name, "stored-leaves", err, input=text)

# Block headers (`txfx header hash`), from block 3 of the TypeScript chain (testdata/chain/), read
# in the AZIP-26 layout unless the case says "pre-azip-26". Kinds: HeaderError variants.
chain = json.load(open(os.path.join(root, "chain", "chain.json")))
hdr = next(b for b in chain["blocks"] if b["number"] == 3)["header"]
def hj(mut):
    x = copy.deepcopy(hdr); mut(x); return json.dumps(x)
def gv(k, v): return lambda x: x["globalVariables"].__setitem__(k, v)
for name, text, layout, err in [
    ("no txEffectsTreeRoot, AZIP-26 asked", hj(lambda x: x.pop("txEffectsTreeRoot")), "azip-26", "Layout"),
    ("txEffectsTreeRoot, pre-AZIP-26 asked", hj(lambda x: None), "pre-azip-26", "Layout"),
    ("not JSON", "{\"lastArchive\":", "azip-26", "Malformed/Syntax"),
    ("no globalVariables", hj(lambda x: x.pop("globalVariables")), "azip-26", "Malformed/MissingKey"),
    ("blockNumber as a hex string", hj(gv("blockNumber", "0x3")), "azip-26", "Malformed/Number"),
    ("blockNumber of 33 bits", hj(gv("blockNumber", 2 ** 32)), "azip-26", "Malformed/Number"),
    ("timestamp of 65 bits", hj(gv("timestamp", str(2 ** 64))), "azip-26", "Malformed/Number"),
    ("timestamp in hex", hj(gv("timestamp", "0x10")), "azip-26", "Malformed/Number"),
    ("coinbase of 19 bytes", hj(gv("coinbase", "0x" + "ab" * 19)), "azip-26", "Malformed/BadValue"),
    ("coinbase not hex", hj(gv("coinbase", "0x" + "zz" * 20)), "azip-26", "Malformed/BadValue"),
    ("coinbase with a plus sign", hj(gv("coinbase", "0x+f" + "ab" * 19)), "azip-26", "Malformed/BadValue"),
    ("nextAvailableLeafIndex of 33 bits", hj(lambda x: x["lastArchive"].__setitem__("nextAvailableLeafIndex", 2 ** 32)), "azip-26", "Malformed/Number"),
    ("gas fee negative", hj(lambda x: x["globalVariables"]["gasFees"].__setitem__("feePerDaGas", "-1")), "azip-26", "Malformed/Number"),
    ("gas fee of 129 bits", hj(lambda x: x["globalVariables"]["gasFees"].__setitem__("feePerL2Gas", str(2 ** 128))), "azip-26", "Malformed/Number"),
    ("spongeBlobHash >= p", hj(lambda x: x.__setitem__("spongeBlobHash", P)), "azip-26", "Field/NotCanonical"),
    ("txEffectsTreeRoot >= p", hj(lambda x: x.__setitem__("txEffectsTreeRoot", P)), "azip-26", "Field/NotCanonical"),
    ("nextAvailableLeafIndex negative", hj(lambda x: x["lastArchive"].__setitem__("nextAvailableLeafIndex", -1)), "azip-26", "Malformed/Number"),
]:
    case("header json: " + name, "header-json", err, input=text, layout=layout)

# Archive witnesses (`txfx archive verify --witness`), from the node's answer for block 3.
w3 = next(b for b in chain["blocks"] if b["number"] == 3)["archiveWitness"]
raw = base64.b64decode(w3["base64"])
def b64(bs): return base64.b64encode(bs).decode()
for name, text, err in [
    ("JSON-RPC response without result", json.dumps({"jsonrpc": "2.0", "id": 1}), "Rpc/NoResult"),
    ("JSON-RPC result null", json.dumps({"jsonrpc": "2.0", "id": 1, "result": None}), "Rpc/NoResult"),
    ("JSON-RPC error", json.dumps({"jsonrpc": "2.0", "id": 1, "error": {"code": -32000, "message": "x"}}), "Rpc/NodeError"),
    ("not base64", json.dumps("***"), "NotBase64"),
    ("not JSON and not base64", "{\"result\": ", "Malformed/Syntax"),
    ("one sibling short", json.dumps(b64(raw[:-32])), "ArchiveWitness/WrongByteLength"),
    ("one sibling more", json.dumps(b64(raw + raw[-32:])), "ArchiveWitness/WrongByteLength"),
    ("a byte short", json.dumps(b64(raw[:-1])), "ArchiveWitness/WrongByteLength"),
    ("leaf index over 64 bits", json.dumps(b64(b"\x01" + raw[1:])), "ArchiveWitness/IndexTooLarge"),
    ("sibling >= p", json.dumps(b64(raw[:32] + b"\xff" * 32 + raw[64:])), "ArchiveWitness/BadSibling"),
    ("keys of a response and of a witness", json.dumps({"jsonrpc": "2.0", "id": 1, "result": w3["base64"], "leafIndex": 3}), "Malformed/UnknownKey"),
    ("a number", "42", "Malformed/WrongType"),
    ("path of 31 as fields", json.dumps({"leafIndex": 3, "siblingPath": w3["siblingPath"] + [h(1)]}), "ArchiveWitness/WrongPathLength"),
]:
    case("archive witness: " + name, "archive-witness", err, input=text)

# Category proofs (`txfx category verify`): the small fixture's nullifier proof, made by hand from
# the fixture's own values (tx hash, marker, fee, category hashes, preimage).
small_fx = json.load(open(os.path.join(root, "aztec-fixtures.json")))["tx_effect_fixtures"]["small"]
proof = {"txHash": small_fx["tx_hash"], "txStartMarker": small_fx["tx_start_marker"], "transactionFee": small_fx["transaction_fee"],
         "categoryHashes": small_fx["category_hashes"], "category": "nullifiers", "preimage": small["nullifiers"]}
def pj(mut):
    x = copy.deepcopy(proof); mut(x); return json.dumps(x)
# The small fixture's public-log proof: preimage (len, address, fields..) = [2, 200, 201, 202].
pub_proof = dict(proof, category="publicLogs", preimage=[h(2), h(200), h(201), h(202)])
def pp(mut):
    x = copy.deepcopy(pub_proof); mut(x); return json.dumps(x)
for name, text, err in [
    ("unknown category", pj(lambda x: x.__setitem__("category", "notes")), "Malformed/BadValue"),
    ("six category hashes", pj(lambda x: x["categoryHashes"].pop()), "Malformed/Count"),
    ("no preimage", pj(lambda x: x.pop("preimage")), "Malformed/MissingKey"),
    # The marker fixes the section's length: the preimage is read no further than it.
    ("preimage longer than the marker's count", pj(lambda x: x["preimage"].append(h(7))), "Malformed/TooMany"),
    ("preimage shorter than the marker's count", pj(lambda x: x.__setitem__("preimage", [])), "Section/RanOut"),
    ("marker not a marker", pj(lambda x: x.__setitem__("txStartMarker", h(7))), "Proof/NotAMarker"),
    # Counts no tx can have are refused from the marker alone, before the preimage is read.
    ("marker claims 65535 nullifiers", pj(lambda x: x.__setitem__("txStartMarker", marker(nf=65535, n=65538))), "Proof/Section/Limit"),
    ("marker claims a contract-class log of 3024 fields", pj(lambda x: x.update(category="contractClassLogs", txStartMarker=marker(ccl=3024, n=3028))), "Proof/Section/Limit"),
    ("marker claims a public-log payload near 2^32", pp(lambda x: x.__setitem__("txStartMarker", marker(publen=2 ** 32 - 2, n=2 ** 32 - 1))), "Proof/Section/Limit"),
    ("another nullifier", pj(lambda x: x.__setitem__("preimage", [h(0x16)])), "CategoryHashMismatch"),
    # txfx's own format is strict: a key it would not read is refused, never skipped.
    ("an unknown key", pj(lambda x: x.__setitem__("elements", [{"role": "nullifier", "index": 0, "value": x["preimage"][0]}])), "Malformed/UnknownKey"),
    # An element is named by its place and role.
    ("element without a role", pj(lambda x: x.__setitem__("element", {"index": 0, "value": x["preimage"][0]})), "Malformed/MissingKey"),
    ("element with a key its role has not", pj(lambda x: x.__setitem__("element", {"role": "nullifier", "index": 0, "log": 0, "value": x["preimage"][0]})), "Malformed/UnknownKey"),
    ("element at a wrong index", pj(lambda x: x.__setitem__("element", {"role": "nullifier", "index": 1, "value": x["preimage"][0]})), "ElementMismatch"),
    ("element of another value", pj(lambda x: x.__setitem__("element", {"role": "nullifier", "index": 0, "value": h(0x16)})), "ElementMismatch"),
    ("element of another category's role", pj(lambda x: x.__setitem__("element", {"role": "noteHash", "index": 0, "value": x["preimage"][0]})), "RoleOfAnotherCategory"),
    ("a log's length as a field", pp(lambda x: x.__setitem__("element", {"role": "publicLogField", "log": 0, "field": 0, "value": h(2)})), "ElementMismatch"),
    ("a log's address as a field", pp(lambda x: x.__setitem__("element", {"role": "publicLogField", "log": 0, "field": 0, "value": h(200)})), "ElementMismatch"),
    ("a field past the log", pp(lambda x: x.__setitem__("element", {"role": "publicLogField", "log": 0, "field": 2, "value": h(202)})), "ElementMismatch"),
    ("tx hash of another tx", pj(lambda x: x.__setitem__("txHash", h(0x4321))), "Leaf/RootMismatch"),
    ("fee changed", pj(lambda x: x.__setitem__("transactionFee", h(43))), "Leaf/RootMismatch"),
    ("another category's hash changed", pj(lambda x: x["categoryHashes"].__setitem__(0, h(1))), "Leaf/RootMismatch"),
]:
    case("category proof: " + name, "category-proof", err, input=text)

with open(os.path.join(root, "bad-inputs", "catalogue.json"), "w") as f:
    json.dump({"note": "generated by tools/make_bad_inputs.py; error kinds chosen by hand from docs/spec.md", "cases": cases}, f, indent=1)
    f.write("\n")
print(len(cases), "cases")

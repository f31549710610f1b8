#!/usr/bin/env python3
"""Transcribe the three Aztec tx-effect fixtures' *inputs* from aztec-fixtures.json into TxEffect JSON
as Aztec's TypeScript prints it (testdata/effects/*.json: private logs padded to 16 fields,
contract-class logs nested and padded to 3023), and assemble testdata/blocks/three-fixtures.json
from them. Only inputs are written: every expected value stays in aztec-fixtures.json. The maximum
fixture's inputs are given there as prose; this follows it."""
import json, os

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)
fx = json.load(open(os.path.join(root, "aztec-fixtures.json")))["tx_effect_fixtures"]

def h(x):
    return "0x%064x" % (int(x, 0) if isinstance(x, str) else int(x))

def pad(values, n):
    return [h(v) for v in values] + [h(0)] * (n - len(values))

s = fx["small"]["inputs"]
small = {
    "revertCode": s["revertCode"], "txHash": h(s["txHash"]), "transactionFee": h(s["transactionFee"]),
    "noteHashes": [h(v) for v in s["noteHashes"]], "nullifiers": [h(v) for v in s["nullifiers"]],
    "l2ToL1Msgs": [h(v) for v in s["l2ToL1Msgs"]],
    "publicDataWrites": [{"leafSlot": h(w["leafSlot"]), "value": h(w["value"])} for w in s["publicDataWrites"]],
    "privateLogs": [{"fields": pad(l["fields"], 16), "emittedLength": l["emittedLength"]} for l in s["privateLogs"]],
    "publicLogs": [{"contractAddress": h(l["contractAddress"]), "fields": [h(v) for v in l["fields"]]} for l in s["publicLogs"]],
    "contractClassLogs": [{"contractAddress": h(l["contractAddress"]), "fields": {"fields": pad(l["fields"], 3023)},
                           "emittedLength": l["emittedLength"]} for l in s["contractClassLogs"]],
}
empty = {"revertCode": 0, "txHash": h(0), "transactionFee": h(0), "noteHashes": [], "nullifiers": [],
         "l2ToL1Msgs": [], "publicDataWrites": [], "privateLogs": [], "publicLogs": [], "contractClassLogs": []}
maximum = {
    "revertCode": 0, "txHash": h(0x1234), "transactionFee": h(42),
    "noteHashes": [h(i + 1) for i in range(64)], "nullifiers": [h(i + 101) for i in range(64)],
    "l2ToL1Msgs": [h(i + 201) for i in range(8)],
    "publicDataWrites": [{"leafSlot": h(i + 301), "value": h(i + 401)} for i in range(64)],
    "privateLogs": [{"fields": [h(i + 501)] * 16, "emittedLength": 16} for i in range(64)],
    "publicLogs": [{"contractAddress": h(601), "fields": [h(601)] * 4094}],
    "contractClassLogs": [{"contractAddress": h(801), "fields": {"fields": [h(701)] * 3023}, "emittedLength": 3023}],
}
for name, effect in [("small", small), ("empty", empty), ("maximum", maximum)]:
    with open(os.path.join(root, "effects", name + ".json"), "w") as f:
        json.dump(effect, f, indent=1 if name != "maximum" else None)
        f.write("\n")
# The upstream three-tx block: [empty, small, maximum], in TypeScript's Body shape.
with open(os.path.join(root, "blocks", "three-fixtures.json"), "w") as f:
    json.dump({"txEffects": [empty, small, maximum]}, f)
    f.write("\n")

# The upstream witness of tx 1 (the small fixture) of the three-tx block, in the node API's JSON
# (aztec_getTxEffectMembershipWitness, AZIP-26 form: no categoriesHash), as the node would serve
# it for block 3 of testdata/chain/ (whose header commits to this block's root). Transcribed from
# three_tx_block.witnesses[1]: leafIndex and siblingPath as the upstream test gives them.
import base64
three = json.load(open(os.path.join(root, "aztec-fixtures.json")))["three_tx_block"]
w1 = three["witnesses"][1]
path = len(w1["siblingPath"]).to_bytes(4, "big") + b"".join(int(e, 16).to_bytes(32, "big") for e in w1["siblingPath"])
witness = {"blockNumber": 3, "root": three["root"], "leafIndex": str(w1["leafIndex"]),
           "siblingPath": base64.b64encode(path).decode()}
with open(os.path.join(root, "chain", "tx-witness-3-1.json"), "w") as f:
    json.dump(witness, f, indent=2)
    f.write("\n")

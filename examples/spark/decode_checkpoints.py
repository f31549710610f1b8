"""Decode a file of checkpoints with Spark, piping each partition through txfx: the README's
Spark recipe, run as written (local mode, or any cluster whose executors have `txfx` on PATH).

    pip install pyspark          # and a JRE (Debian: default-jre-headless)
    python3 examples/spark/decode_checkpoints.py CHECKPOINTS.jsonl OUT_DIR [CORES]

CHECKPOINTS.jsonl holds one checkpoint per line (the JSON array of its blob fields, as L1 blobs
carry them); OUT_DIR receives one decoded checkpoint per line, in input order within each
partition (`rdd.pipe` keeps a partition's order; `zipWithIndex` before the pipe restores the
global order if a job needs it). Prints the throughput: checkpoints per second, and per core.
"""
import os
import sys
import time

from pyspark import SparkConf, SparkContext


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    source, out = sys.argv[1], sys.argv[2]
    cores = int(sys.argv[3]) if len(sys.argv) > 3 else 2
    conf = SparkConf().setMaster(f"local[{cores}]").setAppName("txfx-checkpoint-decode")
    sc = SparkContext(conf=conf)
    sc.setLogLevel("ERROR")
    lines = sc.textFile(source, minPartitions=cores).cache()
    count = lines.count()
    started = time.monotonic()
    # One txfx process per partition, reading its lines on stdin and answering line for line.
    # --threads 1: Spark already runs one task per core; txfx's own parallelism would only
    # compete with it.
    # `pipe` starts the command with an empty environment unless given one: pass PATH on, and
    # fail the task (checkCode) if txfx exits non-zero, as it does after a line it refused.
    decoded = lines.pipe(
        "txfx --threads 1 checkpoint decode --jsonl -",
        env={"PATH": os.environ.get("PATH", "")},
        checkCode=True,
    )
    decoded.saveAsTextFile(out)
    seconds = time.monotonic() - started
    written = sc.textFile(out).filter(lambda line: '"blocks"' in line).count()
    sc.stop()
    if written != count:
        sys.exit(f"{count} checkpoints in, {written} decoded out")
    rate = count / seconds
    print(f"spark local[{cores}]: {count} checkpoints in {seconds:.2f} s: {rate:.0f}/s, {rate / cores:.0f}/s per core")


if __name__ == "__main__":
    main()

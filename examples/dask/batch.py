#!/usr/bin/env python3
"""Renders a `lamina batch` manifest on a Dask cluster: one task per shard, each shelling out to
`lamina batch MANIFEST --shard K/N --resume --summary SUMMARY/K.json` on whichever worker takes it.

    python batch.py jobs.jsonl --shards 20 --scheduler tcp://scheduler:8786
    python batch.py jobs.jsonl --shards 20 --scheduler-file /shared/scheduler.json --jobs 4

The manifest and its outputs must be on a file system every worker sees (the same path everywhere). A shard
whose `lamina batch` exits 1 (a job failed to render or write: a lost disk, memory) raises, so Dask runs it again
(`--retries`), and `--resume` skips what it had finished; one that exits 2 (a bad job in the manifest: the line is
named in its error) is not retried, it would fail the same way. A worker lost mid-shard is retried by Dask
itself. Prints one line per shard and exits 0 when every shard succeeded, 2 when any had a bad job, 1 otherwise.
Documented in docs/scale.md ("Dask"); run by Tests/LaminaCLITests/SchedulerTests.swift.
"""
import argparse
import os
import subprocess
import sys

from dask.distributed import Client


class ShardFailed(RuntimeError):
    """A shard that may succeed when run again (lamina batch exited 1)."""


def run_shard(lamina, manifest, k, n, jobs, summary, extra):
    command = [lamina, "batch", manifest, "--shard", f"{k}/{n}", "--resume"]
    if jobs:
        command += ["--jobs", str(jobs)]
    if summary:
        command += ["--summary", os.path.join(summary, f"{k}.json")]
    done = subprocess.run(command + extra, capture_output=True, text=True)
    if done.returncode not in (0, 2):
        raise ShardFailed(f"shard {k}/{n}: lamina batch exited {done.returncode}: {done.stderr[-2000:]}")
    return k, done.returncode, done.stderr[-2000:]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("manifest", help="the manifest (JSON Lines), on storage every worker sees")
    parser.add_argument("--shards", type=int, required=True, help="N: tasks, each a contiguous block of jobs")
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--scheduler", help="the scheduler's address, tcp://HOST:PORT")
    where.add_argument("--scheduler-file", help="the file `dask scheduler --scheduler-file` wrote")
    parser.add_argument("--lamina", default="lamina", help="the lamina binary on the workers (default: from PATH)")
    parser.add_argument("--jobs", type=int, help="lamina batch --jobs on each worker (default: every core)")
    parser.add_argument("--summary", help="a folder for each shard's --summary K.json")
    parser.add_argument("--retries", type=int, default=2, help="runs again of a shard that failed (default 2)")
    parser.add_argument("extra", nargs="*", help="more lamina batch options, after --")
    args = parser.parse_args()

    manifest = os.path.abspath(args.manifest)
    summary = os.path.abspath(args.summary) if args.summary else None
    if summary:
        os.makedirs(summary, exist_ok=True)
    if args.scheduler:
        client = Client(args.scheduler)
    else:
        client = Client(scheduler_file=args.scheduler_file)
    with client:
        # pure=False: every shard is its own task even with equal arguments; retries: a raised ShardFailed or a
        # lost worker runs the shard again, elsewhere if need be.
        futures = [client.submit(run_shard, args.lamina, manifest, k, args.shards, args.jobs, summary, args.extra,
                                 pure=False, retries=args.retries)
                   for k in range(args.shards)]
        failed = bad = False
        for future in futures:
            try:
                k, code, stderr = future.result()
            except ShardFailed as error:
                print(error, file=sys.stderr)
                failed = True
                continue
            last = stderr.strip().splitlines()[-1] if stderr.strip() else ""
            print(f"shard {k}/{args.shards}: exit {code}: {last}")
            if code == 2:
                bad = True
                print(stderr, file=sys.stderr, end="")
    return 1 if failed else 2 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

"""Ctrl-C on ``fem2d validate`` at random moments: how long until it exits, every time.

    python benchmarks/interrupt_validate.py [--repeats 20] [--limit 5] [--latest 8] [--seed 1]

Each repeat starts ``fem2d validate --quiet --out DIR`` in its own process
group, waits a random time in [0.3, --latest] s, sends SIGINT to the whole
group (what a terminal's Ctrl-C does) and measures the time until the command
exits. Prints one line per repeat (delay, seconds to exit, exit status, whether
anything was written after the "interrupted" message, leftover worker
processes, staged or temporary files left behind) and exits 1 when any repeat took longer than --limit seconds,
did not exit with 130, or left a process behind.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def newest_write(root: Path) -> float:
    """Latest modification time of any file under ``root`` (0 if none)."""
    times = [p.stat().st_mtime for p in root.rglob("*") if p.is_file()]
    return max(times, default=0.0)


def alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


def one(delay: float, out: Path, limit: float) -> dict:
    """Interrupt one validate after ``delay`` seconds; what happened."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "fem2d.cli", "validate", "--quiet", "--out", str(out)],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True,
    )
    time.sleep(delay)
    sent = time.time()
    os.killpg(proc.pid, signal.SIGINT)
    try:
        status = proc.wait(timeout=limit * 4)
    except subprocess.TimeoutExpired:
        status = None
    took = time.time() - sent
    err = proc.stderr.read().decode(errors="replace")
    time.sleep(1.0)  # anything still running would write in this second
    leftover = alive(proc.pid)
    if leftover:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    late = newest_write(out) > sent + took + 0.05 if out.exists() else False
    staged = [p for p in out.rglob("*") if "fem2d-new" in p.name or p.name.endswith(".tmp")] if out.exists() else []
    return {"delay": delay, "took": took, "status": status, "late_write": late, "leftover": leftover,
            "traceback": "Traceback" in err, "half_written": bool(staged), "stderr": err}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--limit", type=float, default=5.0, help="seconds allowed from Ctrl-C to exit")
    parser.add_argument("--latest", type=float, default=8.0, help="latest moment of the Ctrl-C (s)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(args.repeats):
            r = one(rng.uniform(0.3, args.latest), Path(tmp) / f"v{k}", args.limit)
            ok = (r["status"] in (130, -2) and r["took"] <= args.limit and not r["late_write"] and not r["leftover"]
                  and not r["traceback"] and not r["half_written"])
            bad += not ok
            print(f"{k:3d}  Ctrl-C at {r['delay']:5.2f} s  exit after {r['took']:5.2f} s  status {r['status']}  "
                  f"late write {r['late_write']}  leftover {r['leftover']}  traceback {r['traceback']}  "
                  f"half-written {r['half_written']}  "
                  f"{'ok' if ok else 'FAIL'}", flush=True)
            if not ok:
                print("      " + "\n      ".join(r["stderr"].strip().splitlines()[-12:]), flush=True)
    print(f"{args.repeats - bad} of {args.repeats} interrupts clean (exit 130 within {args.limit:g} s, nothing "
          "written after, no process or half-written file left, no traceback)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

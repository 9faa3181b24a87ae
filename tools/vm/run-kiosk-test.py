#!/usr/bin/env python3
"""Boots the kiosk test guest (build-guest.sh) once and checks the screen of each run of a spec.

    tools/vm/run-kiosk-test.py --guest DIR --spec SPEC.json --out DIR

SPEC.json:
    {"files": {"scene.json": "/host/path/scene.json"},          copied to /test/ in the guest
     "runs": [{"name": "drm-cpu",
               "command": "lamina play /test/scene.json --output drm --backend cpu",
               "timeout": 60,                                     seconds for the probes to match
               "size": [1280, 800],                               the screendump's size (optional)
               "probes": [{"x": 440, "y": 400, "rgb": [255, 0, 0]}],
               "tolerance": 2,                                    per channel (default 2)
               "exit": 0}]}                                       the exit status after SIGTERM (default 0)

For each run the guest clears /dev/fb0, starts the command and prints a marker on the serial console; the host
then takes a `screendump` over the QEMU monitor every half second until every probe matches (or the run's
timeout passes, or the command exits), tells the guest to go on (a line on the serial port), and the guest stops
the command with SIGTERM and prints its exit status. OUT gets console.log, NAME.ppm (the last screendump of each
run) and result.json; the exit status is 0 when every run matched and exited 0, else 1 with a message per run.
"""
import argparse
import json
import os
import shlex
import signal
import socket
import subprocess
import sys
import tempfile
import time

MARKER = "LAMINA-VM: "


def read_ppm(path):
    """Returns (width, height, rgb bytes) of a binary PPM (P6, maxval 255) as QEMU's screendump writes it."""
    with open(path, "rb") as f:
        data = f.read()
    fields, pos = [], 0
    while len(fields) < 4:
        while data[pos:pos + 1].isspace():
            pos += 1
        if data[pos:pos + 1] == b"#":
            pos = data.index(b"\n", pos) + 1
            continue
        end = pos
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(data[pos:end])
        pos = end
    pos += 1
    if fields[0] != b"P6" or fields[3] != b"255":
        raise ValueError(f"{path}: not a P6 PPM with maxval 255")
    width, height = int(fields[1]), int(fields[2])
    pixels = data[pos:pos + width * height * 3]
    if len(pixels) != width * height * 3:
        raise ValueError(f"{path}: short pixel data")
    return width, height, pixels


class Monitor:
    """The QEMU human monitor on a Unix socket: one command at a time, answered up to the next prompt."""

    def __init__(self, path, deadline):
        while True:
            try:
                self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                self.sock.connect(path)
                break
            except OSError:
                self.sock.close()
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        self.sock.settimeout(30)
        self._until_prompt()

    def _until_prompt(self):
        text = b""
        while not text.endswith(b"(qemu) "):
            chunk = self.sock.recv(4096)
            if not chunk:
                raise EOFError("the QEMU monitor closed")
            text += chunk
        return text.decode(errors="replace")

    def command(self, line):
        self.sock.sendall(line.encode() + b"\n")
        return self._until_prompt()


class Serial:
    """The guest's serial console on a Unix socket: lines in, a line out to answer the guest's `read`."""

    def __init__(self, path, log, deadline):
        while True:
            try:
                self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                self.sock.connect(path)
                break
            except OSError:
                self.sock.close()
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        self.buffer = b""
        self.log = log

    def line(self, timeout):
        """The next line, or None when none came in `timeout` seconds; raises EOFError when the guest is gone."""
        end = time.monotonic() + timeout
        while b"\n" not in self.buffer:
            left = end - time.monotonic()
            if left <= 0:
                return None
            self.sock.settimeout(left)
            try:
                chunk = self.sock.recv(65536)
            except socket.timeout:
                return None
            if not chunk:
                raise EOFError("the guest's serial port closed")
            self.buffer += chunk
            self.log.write(chunk)
            self.log.flush()
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line.decode(errors="replace").rstrip("\r")

    def send(self, text):
        self.sock.sendall(text.encode() + b"\n")


def guest_script(spec):
    """The guest's /test/run.sh: each run in turn, started, held until the host answers, stopped."""
    lines = ["#!/bin/sh", "cd /test", "export HOME=/tmp XDG_RUNTIME_DIR=/run"]
    for run in spec["runs"]:
        name = run["name"]
        lines += [
            f"echo '{MARKER}run {name}'",
            # A black screen between runs, so a run cannot pass on the last one's picture.
            "dd if=/dev/zero of=/dev/fb0 bs=65536 2>/dev/null",
            f"( exec sh -c {shlex.quote(run['command'])} ) > /tmp/{name}.log 2>&1 &",
            "pid=$!",
            f"echo '{MARKER}started {name}' $(cut -d' ' -f1 /proc/uptime)",
            "reply=''",
            # Hold the run until the host has its picture; say so at once when the command ends by itself.
            "while kill -0 $pid 2>/dev/null; do read -t 1 reply && break; done",
            "kill -TERM $pid 2>/dev/null",
            "i=0; while kill -0 $pid 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done",
            "kill -KILL $pid 2>/dev/null",
            "wait $pid; status=$?",
            f"tail -n 30 /tmp/{name}.log | sed 's/^/{MARKER}log {name}: /'",
            f"echo '{MARKER}exit {name}' $status",
            # When the host answered nothing (the command ended first) it is waiting for this line, not reading.
            '[ -z "$reply" ] && read -t 30 reply',
        ]
    return "\n".join(lines) + "\n"


def test_archive(spec, folder):
    """A zstd cpio archive with /test/run.sh and the spec's files."""
    stage = os.path.join(folder, "stage")
    os.makedirs(os.path.join(stage, "test"))
    with open(os.path.join(stage, "test", "run.sh"), "w") as f:
        f.write(guest_script(spec))
    os.chmod(os.path.join(stage, "test", "run.sh"), 0o755)
    for name, source in spec.get("files", {}).items():
        source = os.path.join(spec.get("folder", "."), source)
        with open(source, "rb") as src, open(os.path.join(stage, "test", name), "wb") as dst:
            dst.write(src.read())
    # zstd like the guest's archives: the kernel reads concatenated zstd frames as one stream, while a plain
    # archive after a compressed one is refused ("invalid magic at start of compressed archive").
    archive = os.path.join(folder, "test.cpio.zst")
    names = subprocess.run(["find", "."], cwd=stage, check=True, capture_output=True).stdout
    cpio = subprocess.run(["cpio", "-o", "-H", "newc", "--quiet"], cwd=stage, input=names, check=True,
                          capture_output=True).stdout
    with open(archive, "wb") as out:
        subprocess.run(["zstd", "-q", "-1"], input=cpio, stdout=out, check=True)
    return archive


def check(run, width, height, pixels):
    """The probes' colours and the mismatches (empty when the picture is right)."""
    tolerance = run.get("tolerance", 2)
    seen, problems = [], []
    if "size" in run and [width, height] != run["size"]:
        problems.append(f"screen is {width}x{height}, expected {run['size'][0]}x{run['size'][1]}")
    for probe in run.get("probes", []):
        x, y = probe["x"], probe["y"]
        if not (0 <= x < width and 0 <= y < height):
            problems.append(f"probe ({x}, {y}) is outside the {width}x{height} screen")
            seen.append({"x": x, "y": y, "expected": probe["rgb"], "actual": None})
            continue
        offset = 3 * (y * width + x)
        actual = list(pixels[offset:offset + 3])
        seen.append({"x": x, "y": y, "expected": probe["rgb"], "actual": actual})
        if any(abs(a - e) > tolerance for a, e in zip(actual, probe["rgb"])):
            problems.append(f"({x}, {y}) is {actual}, expected {probe['rgb']}")
    return seen, problems


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--guest", required=True, help="build-guest.sh's output folder")
    parser.add_argument("--spec", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--boot-timeout", type=float, default=120)
    parser.add_argument("--memory", default="1024")
    args = parser.parse_args()
    with open(args.spec) as f:
        spec = json.load(f)
    spec["folder"] = os.path.dirname(os.path.abspath(args.spec))
    os.makedirs(args.out, exist_ok=True)
    started = time.monotonic()
    result = {"runs": []}
    with tempfile.TemporaryDirectory(prefix="lamina-vm-") as folder:
        initrd = os.path.join(folder, "initrd.img")
        with open(initrd, "wb") as out:
            for part in (os.path.join(args.guest, "initrd.img"), test_archive(spec, folder)):
                with open(part, "rb") as f:
                    while chunk := f.read(1 << 22):
                        out.write(chunk)
        serial_path, monitor_path = os.path.join(folder, "serial"), os.path.join(folder, "monitor")
        qemu = subprocess.Popen([
            "qemu-system-x86_64", "-accel", "tcg", "-m", args.memory, "-smp", "1", "-no-reboot",
            "-kernel", os.path.join(args.guest, "vmlinuz"), "-initrd", initrd,
            "-append", " ".join(["console=ttyS0 panic=-1 loglevel=4 vt.global_cursor_default=0"]
                                + spec.get("append", [])),
            "-display", "none", "-vga", "none", "-device", "bochs-display",
            "-chardev", f"socket,id=serial0,path={serial_path},server=on,wait=off",
            "-serial", "chardev:serial0",
            "-monitor", f"unix:{monitor_path},server,nowait",
        ], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        failures = []

        def stop(signum, frame):
            # Killed from outside (a test's time limit): take the VM down too, not leave it running.
            qemu.kill()
            sys.exit(128 + signum)

        signal.signal(signal.SIGTERM, stop)
        try:
            with open(os.path.join(args.out, "console.log"), "wb") as log:
                deadline = time.monotonic() + 20
                serial = Serial(serial_path, log, deadline)
                monitor = Monitor(monitor_path, deadline)
                failures += drive(spec, args, serial, monitor, started, result)
        except (EOFError, OSError, ValueError) as error:
            failures.append(f"the VM: {error}")
        finally:
            try:
                qemu.wait(timeout=30)
            except subprocess.TimeoutExpired:
                qemu.kill()
                qemu.wait()
            qemu_output = qemu.stdout.read().decode(errors="replace").strip()
            if qemu_output:
                result["qemu"] = qemu_output
    result["total_s"] = round(time.monotonic() - started, 2)
    result["failures"] = failures
    with open(os.path.join(args.out, "result.json"), "w") as f:
        json.dump(result, f, indent=1)
    for failure in failures:
        print(f"run-kiosk-test: {failure}", file=sys.stderr)
    print(f"run-kiosk-test: {len(spec['runs'])} runs, {len(failures)} failures, boot {result.get('boot_s')} s, "
          f"total {result['total_s']} s; see {args.out}", file=sys.stderr)
    return 1 if failures else 0


def drive(spec, args, serial, monitor, started, result):
    """Follows the guest's markers through every run; returns the failures."""
    failures = []
    runs = {run["name"]: run for run in spec["runs"]}
    pending = [run["name"] for run in spec["runs"]]
    boot_deadline = time.monotonic() + args.boot_timeout
    current = None
    while pending or current:
        line = serial.line(max(1, boot_deadline - time.monotonic()) if current is None else 60)
        if line is None:
            failures.append(f"no word from the guest (waiting for {current or pending[0]})")
            return failures
        if not line.startswith(MARKER):
            continue
        words = line[len(MARKER):].split()
        if words[0] == "ready":
            result["boot_s"] = round(time.monotonic() - started, 2)
            result["guest"] = " ".join(words[2:])
        elif words[0] == "started":
            name = words[1]
            run = runs[name]
            entry = {"name": name, "ok": False}
            result["runs"].append(entry)
            entry.update(watch(run, args, serial, monitor, entry))
            current = name
            serial.send("next")
        elif words[0] == "log" and current:
            entry = result["runs"][-1]
            entry.setdefault("log", []).append(" ".join(words[2:]))
        elif words[0] == "exit":
            entry = result["runs"][-1]
            entry["exit_status"] = int(words[2])
            # lamina exits 0 on the SIGTERM the guest sends when the host has its picture; a plain command
            # (sleep) dies of it: 143, which such a run's "exit" names.
            expected = runs[entry["name"]].get("exit", 0)
            if entry["exit_status"] != expected:
                entry["problems"].append(f"exited {entry['exit_status']}, expected {expected}")
            entry["ok"] = not entry["problems"]
            if not entry["ok"]:
                failures.append(f"{entry['name']}: " + "; ".join(entry["problems"]))
            pending.remove(entry["name"])
            current = None
    return failures


def watch(run, args, serial, monitor, entry):
    """Screendumps until the probes match, the run's time is up, or the command ends (its exit marker comes)."""
    began = time.monotonic()
    timeout = run.get("timeout", 60)
    if "probes" not in run and "size" not in run:
        # Nothing to look at (`lamina info`): the command runs to its end, and the exit marker says how it went.
        while time.monotonic() - began < timeout:
            line = serial.line(1)
            if line and line.startswith(MARKER + "log"):
                entry.setdefault("log", []).append(line.split(": ", 2)[-1])
            elif line and line.startswith(MARKER + "exit"):
                serial.buffer = (line + "\n").encode() + serial.buffer
                return {"problems": []}
        return {"problems": [f"did not end in {timeout} s"]}
    dump = os.path.join(os.path.abspath(args.out), f"{run['name']}.ppm")
    problems = ["no screendump"]
    seen = []
    while True:
        if os.path.exists(dump):
            os.remove(dump)
        monitor.command(f"screendump {dump}")
        try:
            width, height, pixels = read_ppm(dump)
            seen, problems = check(run, width, height, pixels)
            entry["size"] = [width, height]
        except (OSError, ValueError) as error:
            problems = [f"screendump: {error}"]
        if not problems:
            return {"problems": [], "probes": seen, "match_s": round(time.monotonic() - began, 2)}
        if time.monotonic() - began > timeout:
            return {"problems": problems + [f"no match in {timeout} s"], "probes": seen}
        # The command may have ended by itself: the guest then prints its log and exit status unasked.
        line = serial.line(0.5)
        if line and line.startswith(MARKER + "log"):
            entry.setdefault("log", []).append(line.split(": ", 2)[-1])
        elif line and line.startswith(MARKER + "exit"):
            serial.buffer = (line + "\n").encode() + serial.buffer
            return {"problems": problems + ["the command ended before the picture was right"], "probes": seen,
                    "ended_early": True}


if __name__ == "__main__":
    sys.exit(main())

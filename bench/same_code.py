#!/usr/bin/env python3
"""Whether two builds compiled a function to the same machine code.

    python3 bench/same_code.py BEFORE_BINARY AFTER_BINARY 'demangled-name substring' [...]

For every function of AFTER whose demangled name holds the substring (a template's
instantiations, or its copies: one per translation unit that instantiated it), says which
copies in BEFORE have the same instructions, addresses and jump targets left out. Where a
change only moves code (kernels compiled in another library, called out of line), identical
inner loops show that the loops' speed did not change, which the timings of a noisy machine
cannot show to a few percent. Uses nm and objdump (binutils).
"""
import re
import subprocess
import sys


def functions(binary, pattern):
    """(address, size) of the defined functions whose demangled name holds pattern."""
    out = subprocess.run(["nm", "-C", "-S", "--defined-only", binary], capture_output=True, text=True).stdout
    found = []
    for line in out.splitlines():
        m = re.match(r"^([0-9a-f]+) ([0-9a-f]+) [tTwW] (.*)$", line)
        if m and pattern in m.group(3):
            found.append((int(m.group(1), 16), int(m.group(2), 16)))
    return found


def instructions(binary, start, size):
    """The instructions at [start, start + size), without their addresses."""
    out = subprocess.run(["objdump", "-d", "--no-show-raw-insn", f"--start-address={start}",
                          f"--stop-address={start + size}", binary], capture_output=True, text=True).stdout
    lines = []
    for line in out.splitlines():
        m = re.match(r"^\s*[0-9a-f]+:\s+(.*)$", line)
        if m:
            text = re.sub(r"[0-9a-f]{5,}", "ADDR", m.group(1))  # addresses and jump targets
            lines.append(re.sub(r"<[^>]*>", "", text).strip())
    return lines


def compare(before, after, pattern):
    b = functions(before, pattern)
    a = functions(after, pattern)
    b_code = [instructions(before, s, z) for s, z in b]
    print(f"{pattern}: before {len(b)} copies {[z for _, z in b]} bytes; after {len(a)} copies {[z for _, z in a]} bytes")
    for i, (s, z) in enumerate(a):
        code = instructions(after, s, z)
        same = [j for j, other in enumerate(b_code) if other == code]
        print(f"  after copy {i}: " + (f"the same instructions as before copies {same}" if same else "different instructions"))


if __name__ == "__main__":
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    for p in sys.argv[3:]:
        compare(sys.argv[1], sys.argv[2], p)

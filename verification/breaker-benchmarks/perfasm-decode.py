#!/usr/bin/env python3
"""Decodes the compiled regions of a JMH perfasm report whose machine code is printed as bytes.

JDK 17 prints bytes instead of instructions when no hsdis plugin it can load is installed (Debian's
libhsdis0-fcml is not one). This reads each "Hottest Region" of the report that C2 compiled, decodes
its bytes with objdump (binutils), and prints the instructions with the share of samples JMH put on
them, then the loop: from the target of the region's last backward jump to that jump (the JMH
measurement loop, with the benchmark inlined in it), and how many instructions it has.

Usage: perfasm-decode.py REPORT   (the output of: java -jar benchmarks.jar REGEX -prof 'perfasm:events=cpu-clock')
"""
import re
import subprocess
import sys
import tempfile

BYTES = re.compile(r'^\s*([0-9.]+%)?\s*(0x[0-9a-f]+): ((?:[0-9a-f]{2,8} ?\|? ?)+)\s*$')
INSTRUCTION = re.compile(r'^\s*([0-9a-f]+):\t((?:[0-9a-f]{2} )+)\s*\t?(.*)$')
JUMP = re.compile(r'^j\w*\s+0x([0-9a-f]+)')


def regions(lines):
    """(title, lines) of each hottest region compiled by C2."""
    starts = [i for i, line in enumerate(lines) if line.startswith('....[Hottest Region ') and ']' in line
              and 'Regions]' not in line]
    for start in starts:
        title = lines[start + 1].strip()
        end = next((i for i in range(start + 2, len(lines)) if lines[i].startswith('....')), len(lines))
        if title.startswith('c2,'):
            yield title, lines[start + 2:end]


def decode(region):
    start, code, samples = None, b'', {}
    for line in region:
        match = BYTES.match(line)
        if not match:
            continue
        address = int(match.group(2), 16)
        if start is None:
            start = address
        code += b'\x00' * (address - start - len(code))
        if match.group(1):
            samples[address] = match.group(1)
        code += bytes.fromhex(match.group(3).replace('|', '').replace(' ', ''))
    if start is None:
        return []
    with tempfile.NamedTemporaryFile(suffix='.bin') as binary:
        binary.write(code)
        binary.flush()
        listing = subprocess.run(['objdump', '-D', '-b', 'binary', '-mi386:x86-64', '--adjust-vma=%#x' % start,
                                  binary.name], capture_output=True, text=True, check=True).stdout
    instructions = []
    for line in listing.splitlines():
        match = INSTRUCTION.match(line)
        if match and match.group(3):  # a continuation line of a long instruction has no mnemonic
            address = int(match.group(1), 16)
            instructions.append((address, samples.get(address, ''), match.group(3).strip()))
    return instructions


def loop(instructions):
    """The instructions from the target of the last backward jump to that jump."""
    addresses = [address for address, _, _ in instructions]
    for index in range(len(instructions) - 1, -1, -1):
        address, _, text = instructions[index]
        match = JUMP.match(text)
        if match:
            target = int(match.group(1), 16)
            if target < address and target in addresses:
                return instructions[addresses.index(target):index + 1]
    return []


def main(report):
    with open(report) as file:
        lines = file.read().splitlines()
    for title, region in regions(lines):
        instructions = decode(region)
        print('== ' + title)
        for address, share, text in instructions:
            print('%7s  %x  %s' % (share, address, text))
        body = loop(instructions)
        if body:
            print('-- loop: %d instructions, %x to %x' % (len(body), body[0][0], body[-1][0]))
        print()


if __name__ == '__main__':
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])

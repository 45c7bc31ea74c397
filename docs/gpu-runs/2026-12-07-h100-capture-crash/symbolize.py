import re, subprocess, sys
text = open(sys.argv[1]).read()
for block in text.split("=== ")[1:]:
    head, _, rest = block.partition("\n")
    frames, _, maps = rest.partition("--- maps\n")
    regions = []
    for line in maps.splitlines():
        p = line.split()
        if len(p) >= 6 and "x" in p[1]:
            a, b = (int(x, 16) for x in p[0].split("-"))
            regions.append((a, b, int(p[2], 16), p[5]))
    print("=== " + head)
    for f in frames.splitlines():
        m = re.search(r"\[0x([0-9a-f]+)\]", f)
        if not m:
            continue
        addr = int(m.group(1), 16)
        where = f
        for a, b, off, path in regions:
            if a <= addr < b:
                rel = addr - a + off
                try:
                    sym = subprocess.run(["addr2line", "-Cfpe", path, hex(rel)], capture_output=True, text=True, timeout=20).stdout.strip()
                except Exception as e:
                    sym = str(e)
                where = f"{path}+{hex(rel)}: {sym}"
        print("  ", where)

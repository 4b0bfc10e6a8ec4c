# Writes the generated data tables of ruleset.yaml (hexes, tokens, layouts) from
# shared/games/gold-west.md. Run: python3 gen/tables.py > gen/tables.yaml
cols = {-6:(0,1),-5:(0,2),-4:(-2,1),-3:(-2,2),-2:(-2,2),-1:(-2,2),0:(-3,2),1:(-2,3),2:(-2,2),3:(-2,2),4:(-2,2),5:(-1,2),6:(-2,0),7:(-1,0)}
water = {(-1,0),(0,0),(1,0),(2,0)}
slots = {
0:[(-4,1),(-5,2),(-6,1),(-6,0),(-5,0),(-4,0),(-5,1)],
1:[(-1,2),(-2,2),(-3,2),(-3,1),(-2,0),(-1,1),(-2,1)],
2:[(2,2),(1,3),(0,2),(0,1),(1,1),(2,1),(1,2)],
3:[(5,2),(4,2),(3,2),(3,1),(4,0),(5,1),(4,1)],
4:[(7,0),(6,0),(5,0),(5,-1),(6,-2),(7,-1),(6,-1)],
5:[(4,-1),(3,0),(2,-1),(2,-2),(3,-2),(4,-2),(3,-1)],
6:[(1,-1),(0,-1),(-1,-1),(-1,-2),(0,-3),(1,-2),(0,-2)],
7:[(-2,-1),(-3,0),(-4,-1),(-4,-2),(-3,-2),(-2,-2),(-3,-1)],
}
where = {}
for s, hs in slots.items():
    for k, h in enumerate(hs):
        assert h not in where
        where[h] = (s, k)
allh = [(x, y) for x in range(-6, 8) for y in range(cols[x][0], cols[x][1] + 1)]
assert len(allh) == 60, len(allh)
assert set(allh) == set(where) | water
letters = "ABCDEFGHIJKLMN"
def hid(x, y): return f"{letters[x+6]}{y+4}"
print("  hexes:")
print('    rule: "Mise en place/Le Plateau"')
print("    doc: >")
print("      The 60 hexes of the map (shared/games/gold-west.md): 4 water hexes in the middle and")
print("      8 slots of 7 hexes (ring positions 0-5, then the centre 6) where the shuffled terrain")
print("      tiles go. Ids are a column letter (A for x = -6 ... N for x = 7) and a row number")
print("      (y + 4: 1 at the top, 7 at the bottom). Even columns sit half a hex lower (even-q).")
print("      end: slots 0 and 4, which touch no water and are left out with 2 players.")
print("    columns: { x: int, y: int, water: bool, slot: int, pos: int, end: bool }")
print("    geometry: { hex: even-q, x: x, y: y }")
print("    rows:")
for (x, y) in allh:
    if (x, y) in water:
        print(f"      - [{hid(x,y)}, {x}, {y}, true, -1, -1, false]")
    else:
        s, k = where[(x, y)]
        print(f"      - [{hid(x,y)}, {x}, {y}, false, {s}, {k}, {'true' if s in (0,4) else 'false'}]")
# tokens
spec = {
 'gold': "GGG×2, GG×4, GGA×2, GSW×2, GA×1, GGC×2, GAC×1",
 'silver': "AA×4, ASW×2, AAA×2, AC×1, AAC×2, AAG×2, AS×1",
 'copper': "CC×4, CSW×2, CCC×2, CG×1, CCG×2, CCA×2, CS×1",
 'forest': "WWW×3, SSS×3, WG×1, WC×1, WA×1, WS×2, WWS×1, SSW×1, SG×1",
}
print("  tokens:")
print('    rule: "Mise en place/Le Plateau"')
print("    doc: >")
print("      The 56 mine tokens, 14 per terrain, with the resources each shows (S stone, W wood,")
print("      C copper, A silver, G gold; code is that list). Ids: terrain letter, code, copy.")
print("    columns: { terrain: terrains, code: str, stone: int, wood: int, copper: int, silver: int, gold: int }")
print("    rows:")
tl = {'gold':'g','silver':'a','copper':'c','forest':'f'}
n = 0
for t, s in spec.items():
    tot = 0
    for part in s.split(", "):
        code, cnt = part.split("×")
        for i in range(int(cnt)):
            c = {r: code.count(r) for r in "SWCAG"}
            print(f"      - [{tl[t]}-{code.lower()}-{i+1}, {t}, {code}, {c['S']}, {c['W']}, {c['C']}, {c['A']}, {c['G']}]")
            tot += 1; n += 1
    assert tot == 14, (t, tot)
assert n == 56
# boomtown layouts: domino tilings of 3x3 minus one cell
cells = [(r, c) for r in range(3) for c in range(3)]
def tilings(free):
    free = sorted(free)
    if not free: return [[]]
    a = free[0]; out = []
    for b in [(a[0], a[1]+1), (a[0]+1, a[1])]:
        if b in free:
            rest = [x for x in free if x not in (a, b)]
            for t in tilings(rest):
                out.append([(a, b)] + t)
    return out
lays = []
for hole in cells:
    for t in tilings([c for c in cells if c != hole]):
        lab = {hole: 0}
        for i, (a, b) in enumerate(t):
            lab[a] = i + 1; lab[b] = i + 1
        lays.append([lab[c] for c in cells])
print("  layouts:")
print('    rule: "Mise en place/Boomtown"')
print("    doc: >")
print("      Every way to lay 4 office dominoes and the 4-VP tile on the 3x3 Boomtown grid")
print(f"      ({len(lays)} layouts): for each space, row by row from the top left (s00 ... s22),")
print("      which drawn office (1-4) covers it, 0 for the 4-VP tile.")
print("    reconstructed: >")
print("      The rulebook shows example arrangements and allows any; this is every tiling of the")
print("      grid by four dominoes and one single space, worked out by gen/tables.py.")
print("    columns: { s00: int, s01: int, s02: int, s10: int, s11: int, s12: int, s20: int, s21: int, s22: int }")
print("    rows:")
for i, l in enumerate(lays):
    print(f"      - [layout-{i+1}, {', '.join(map(str, l))}]")

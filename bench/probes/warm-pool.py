#!/usr/bin/env python3
"""How often one full run's warm worst-round goal is met by chance: the warm rounds of several full runs pooled.

Reads the "punctuality, warm" tables of `full` consoles (FILE, or FILE:FIRST-LAST for a line range, so that one
file holding runs of both JDKs can be split), prints each run's worst round max and its rounds over 1, 2 and 3 ms
per kind, the pooled distribution of the rounds' maxima, and a bootstrap: draws ROUNDS rounds per kind from the
pools and counts how often timewheel's worst max is at or below STPE's, i.e. the chance that a run meets the
goal "the worst round's max no worse than STPE's worst" if each round is a draw from the pooled distribution.

  python3 bench/probes/warm-pool.py [--rounds 40] CONSOLE[:FIRST-LAST] ...
"""
import random, re, sys

args = sys.argv[1:]
rounds = 40
if args[:1] == ['--rounds']:
    rounds, args = int(args[1]), args[2:]
pool = {'timewheel': [], 'stpe': []}
for arg in args:
    path, _, span = arg.partition(':')
    lines = open(path).read().split('\n')
    first, last = (map(int, span.split('-')) if span else (1, len(lines)))
    i, last = first - 1, min(last, len(lines))
    while i < last:
        if not lines[i].startswith('punctuality, warm'):
            i += 1
            continue
        run = {'timewheel': [], 'stpe': []}
        j = i + 2  # past the header line
        while j < len(lines) and re.match(r'^(timewheel|stpe)\s+\d', lines[j]):
            f = lines[j].split()
            if 'cold' not in lines[j]:  # the first round is cold: not counted, as in the report
                run[f[0]].append(float(f[4]))
            j += 1
        tw, st = run['timewheel'], run['stpe']
        over = lambda xs, t: sum(x > t for x in xs)
        print(f"{path.split('/')[-1]}:{i + 1:<6} worst {max(tw):5.2f} vs {max(st):5.2f} ms; rounds over 1/2/3 ms "
              f"{over(tw, 1)}/{over(tw, 2)}/{over(tw, 3)} vs {over(st, 1)}/{over(st, 2)}/{over(st, 3)}")
        pool['timewheel'] += tw
        pool['stpe'] += st
        i = j
tw, st = sorted(pool['timewheel']), sorted(pool['stpe'])
q = lambda xs, p: xs[min(len(xs) - 1, int(p * len(xs)))]
print(f"pooled: {len(tw)} vs {len(st)} rounds; round max p50 {q(tw, .5):.3f} vs {q(st, .5):.3f}, "
      f"p90 {q(tw, .9):.2f} vs {q(st, .9):.2f}, p99 {q(tw, .99):.2f} vs {q(st, .99):.2f} ms")
for t in (1, 2, 3):
    print(f"  rounds with max over {t} ms: {sum(x > t for x in tw)} vs {sum(x > t for x in st)}")
random.seed(1)
draws, met = 20000, 0
for _ in range(draws):
    met += max(random.choices(tw, k=rounds)) <= max(random.choices(st, k=rounds))
print(f"bootstrap, {rounds} rounds per kind, {draws} draws: timewheel's worst max <= STPE's in {met / draws:.2f}")

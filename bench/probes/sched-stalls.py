#!/usr/bin/env python3
"""What held the CPUs while the latest timer of a WarmFlood round waited, from a `perf sched record` of the probe.
For each round whose max passed MIN ms (default 1.5): the latest timer's window (due .. started, ms after the
round's flood began) and every stretch of over 0.3 ms that some thread ran (sched_stat_runtime) overlapping it,
named worker, producer, or by the thread's name, with its CPU and when it ended.

  javac -cp EXECUTOR_JAR -d /tmp/wf bench/probes/WarmFlood.java
  perf sched record -k CLOCK_MONOTONIC -o /tmp/p.data -- java -cp EXECUTOR_JAR:/tmp/wf WarmFlood 21 > /tmp/p.txt
  perf script -i /tmp/p.data -F comm,tid,cpu,time,event,trace --ns > /tmp/p.sched
  python3 bench/probes/sched-stalls.py /tmp/p.txt /tmp/p.sched [MIN]
"""
import re,sys,bisect
out,trace=sys.argv[1],sys.argv[2]
min_ms=float(sys.argv[3]) if len(sys.argv)>3 else 1.5
ev=[]
for line in open(trace):
    m = re.match(r'\s*(.+?)\s+(\d+)\s+\[(\d+)\]\s+([\d.]+):\s+sched:(\S+):\s+(.*)', line)
    if m: ev.append((float(m.group(4)), m.group(3), m.group(1), m.group(5), m.group(6)))
ev.sort(key=lambda e:e[0]); ts=[e[0] for e in ev]
for l in open(out):
    if not l.startswith('first'): continue
    m=re.search(r'round +(\d+) (\w+) .* max ([\d.]+) .* abs t0 (\d+) worst due (\d+) start (\d+) wtid (\S+) main (\S+)',l)
    r,k,mx,t0,due,st,w,mn=int(m.group(1)),m.group(2),float(m.group(3)),int(m.group(4))/1e9,int(m.group(5))/1e9,int(m.group(6))/1e9,m.group(7),m.group(8)
    if mx<min_ms: continue
    long=[]
    for e in ev[bisect.bisect_left(ts,due-0.0005):bisect.bisect_right(ts,st+0.005)]:
        if e[3]=='sched_stat_runtime':
            rm=re.search(r'comm=(.*?) pid=(\d+) runtime=(\d+)',e[4])
            rt=int(rm.group(3))/1e6
            who=rm.group(1)
            if rm.group(2)==w: who='worker'
            elif rm.group(2)==mn: who='producer'
            # runtime segment ends at e[0]; overlaps window?
            if rt>0.3 and e[0]-rt/1e3 < st and e[0] > due-0.0005:
                long.append(f'{who}@cpu{e[1]} {rt:.2f}ms ending {(e[0]-t0)*1e3:.2f}')
    print(f'{k:4s} r{r:2d} max {mx:.3f} window {(due-t0)*1e3:.2f}..{(st-t0)*1e3:.2f}: '+'; '.join(long[:6]))

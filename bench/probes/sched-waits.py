#!/usr/bin/env python3
"""Where a probe's worker thread waited for a CPU, from a `perf sched record` of the probe (bench/probes/Late500.java,
bench/probes/WarmThreads.java: they print a line "T0 <nanoTime> TID <worker tid> MAIN <producer tid> r<NN> <kind> ...
p99 <ms>" per round). For each round from the third on: how long the worker was runnable but not running in the
first SPAN ms after T0, split by the thread that held its CPU meanwhile, and the sums per kind.

  perf sched record -k CLOCK_MONOTONIC -o /tmp/p.data -- java -cp EXECUTOR_JAR:DIR Late500 10 > /tmp/p.txt
  perf script -i /tmp/p.data -F comm,tid,cpu,time,event,trace --ns > /tmp/p.sched
  python3 bench/probes/sched-waits.py /tmp/p.txt /tmp/p.sched 30
"""
import bisect, collections, re, sys

out, trace, span = sys.argv[1], sys.argv[2], float(sys.argv[3]) / 1e3
rounds = []
for line in open(out):
    m = re.search(r'T0 (\d+) TID (\S+) MAIN (\S+) r(\d+) (\S+).*? p99\s+([\d.]+)', line)
    if m:
        rounds.append((int(m.group(1)) / 1e9, m.group(2), m.group(3), int(m.group(4)), m.group(5), float(m.group(6))))
events = []
for line in open(trace):
    m = re.match(r'\s*(.+?)\s+(\d+)\s+\[(\d+)\]\s+([\d.]+):\s+sched:(\S+):\s+(.*)', line)
    if m and m.group(5) != 'sched_stat_runtime':
        events.append((float(m.group(4)), int(m.group(3)), m.group(5), m.group(6)))
events.sort(key=lambda e: e[0])
times = [e[0] for e in events]
totals = collections.defaultdict(collections.Counter)
for t0, worker, main, r, kind, p99 in rounds:
    if r < 2:
        continue
    end = t0 + span
    name = lambda comm, pid: 'worker' if pid == worker else 'producer' if pid == main else re.sub(r'[/\d-]+$', '', comm)
    running = {}             # cpu -> who runs there
    ready_since, ready_cpu = None, None
    waits = collections.Counter()

    def close(t):  # the worker waited from ready_since to t behind whoever ran on ready_cpu
        if ready_since is not None and t > t0:
            waits[running.get(ready_cpu, '?')] += t - max(ready_since, t0)

    for t, cpu, ev, text in events[bisect.bisect_left(times, t0 - 0.05):]:
        if t > end:
            break
        if ev == 'sched_switch':
            m = re.search(r'prev_comm=(.*?) prev_pid=(\d+) .*prev_state=(\S+) ==> next_comm=(.*?) next_pid=(\d+)', text)
            if ready_since is not None and cpu == ready_cpu:
                close(t)
                ready_since = t
            running[cpu] = name(m.group(4), m.group(5))
            if m.group(2) == worker and m.group(3).startswith('R'):
                ready_since, ready_cpu = t, cpu      # preempted: runnable from now
            if m.group(5) == worker:
                ready_since = None                   # runs
        elif ev in ('sched_waking', 'sched_wakeup_new'):
            m = re.search(r'pid=(\d+) .*target_cpu=(\d+)', text)
            if m and m.group(1) == worker and ready_since is None:
                ready_since, ready_cpu = t, int(m.group(2))
        elif ev == 'sched_migrate_task':
            m = re.search(r'pid=(\d+) .*dest_cpu=(\d+)', text)
            if m and m.group(1) == worker and ready_since is not None:
                close(t)
                ready_since, ready_cpu = t, int(m.group(2))
    if ready_since is not None:
        close(end)
    waits.pop('swapper', None)  # a CPU shown idle while the worker was runnable: a wake-up in flight
    totals[kind].update(waits)
    totals[kind]['(rounds)'] += 1
    print('r%02d %-5s p99 %6.3f ms  worker waited %6.2f ms: %s' % (r, kind, p99, sum(waits.values()) * 1e3,
          ', '.join('%s %.2f' % (k, v * 1e3) for k, v in waits.most_common(4))))
for kind, c in totals.items():
    n = c.pop('(rounds)')
    print('%s, %d rounds: waited %.2f ms in all, behind %s' % (kind, n, sum(c.values()) * 1e3,
          ', '.join('%s %.2f' % (k, v * 1e3) for k, v in c.most_common(6))))

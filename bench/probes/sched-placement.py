#!/usr/bin/env python3
"""Where the kernel put timewheel's tick thread and the worker when they woke, from a `perf sched record` of
bench/probes/Late500.java (its per-round lines "T0 <nanoTime> TID <worker tid> MAIN <producer tid> r<NN> tw ...").
For each timewheel round from the third on, from SKIP ms after T0 to 500 ms: the tick thread's wake-ups (on the
waker's own CPU or not; what ran on the target CPU and on the other one), the worker's wake-ups (the same), the
tick thread's runs (count, total and median length), and how long the worker was runnable behind the tick
thread, split by what the other CPU ran meanwhile. Written for a 2-CPU machine (CPUs 0 and 1).

  perf sched record -k CLOCK_MONOTONIC -o /tmp/p.data -- java -Dthr=120000 -cp EXECUTOR_JAR:DIR Late500 14 > /tmp/p.txt
  perf script -i /tmp/p.data -F comm,tid,cpu,time,event,trace --ns > /tmp/p.sched
  python3 bench/probes/sched-placement.py /tmp/p.txt /tmp/p.sched [SKIP=150]
"""
import bisect, collections, re, sys

out, trace = sys.argv[1], sys.argv[2]
skip = float(sys.argv[3]) / 1e3 if len(sys.argv) > 3 else 0.15
rounds = []
for line in open(out):
    m = re.search(r'T0 (\d+) TID (\S+) MAIN (\S+) r(\d+) (\S+)', line)
    if m and m.group(5) == 'tw' and int(m.group(4)) >= 2:
        rounds.append((int(m.group(1)) / 1e9, m.group(2)))
events = []
for line in open(trace):
    m = re.match(r'\s*(.+?)\s+(\d+)\s+\[(\d+)\]\s+([\d.]+):\s+sched:(sched_switch|sched_waking):\s+(.*)', line)
    if m:
        events.append((float(m.group(4)), int(m.group(3)), m.group(5), m.group(6)))
events.sort(key=lambda e: e[0])
times = [e[0] for e in events]
tick_wakes, worker_wakes, behind = collections.Counter(), collections.Counter(), collections.Counter()
runs = []
for t0, worker in rounds:
    running, since, waiting = {}, {}, None   # cpu -> who; cpu -> tick run start; (since, cpu) while worker runnable
    def who(comm, pid):
        return 'tick' if comm.startswith('timewheel-tick') else 'worker' if pid == worker else 'idle' if pid == '0' else 'other'
    for t, cpu, ev, text in events[bisect.bisect_left(times, t0 - 0.01):bisect.bisect_left(times, t0 + 0.5)]:
        counted = t >= t0 + skip
        if ev == 'sched_switch':
            m = re.search(r'prev_comm=(.*?) prev_pid=(\d+) .*prev_state=(\S+) ==> next_comm=(.*?) next_pid=(\d+)', text)
            prev, nxt = who(m.group(1), m.group(2)), who(m.group(4), m.group(5))
            if waiting and waiting[1] == cpu and counted:
                behind[(running.get(cpu, '?'), running.get(1 - cpu, '?'))] += t - waiting[0]
                waiting = (t, cpu)
            if prev == 'tick' and cpu in since:
                if counted:
                    runs.append(t - since.pop(cpu))
                since.pop(cpu, None)
            if nxt == 'tick':
                since[cpu] = t
            if prev == 'worker' and m.group(3).startswith('R'):
                waiting = (t, cpu)
            if nxt == 'worker':
                waiting = None
            running[cpu] = nxt
        else:
            m = re.search(r'comm=(.*?) pid=(\d+) .*target_cpu=(\d+)', text)
            target = int(m.group(3))
            where = (running.get(target, '?'), running.get(1 - target, '?'))
            if m.group(1).startswith('timewheel-tick'):
                if counted:
                    tick_wakes[('own CPU' if target == cpu else 'other CPU',) + where] += 1
            elif m.group(2) == worker:
                if counted:
                    worker_wakes[where] += 1
                if waiting is None:
                    waiting = (t, target)
print('%d timewheel rounds, %d-500 ms after each T0' % (len(rounds), skip * 1e3))
print('tick thread woken (placed on / target CPU ran / other CPU ran):')
for k, c in tick_wakes.most_common(6):
    print('  %5d  %s' % (c, ', '.join(k)))
print('worker woken (target CPU ran / other CPU ran):')
for k, c in worker_wakes.most_common(6):
    print('  %5d  %s' % (c, ', '.join(k)))
runs.sort()
if runs:
    print('tick thread runs: %d, %.2f ms in all, median %.0f us, p90 %.0f us, max %.0f us' % (
        len(runs), sum(runs) * 1e3, runs[len(runs) // 2] * 1e6, runs[int(len(runs) * 0.9)] * 1e6, runs[-1] * 1e6))
print('worker runnable, not running (ms; its CPU ran / the other CPU ran):')
for k, v in sorted(behind.items(), key=lambda kv: -kv[1])[:6]:
    print('  %7.2f  %s' % (v * 1e3, ', '.join(k)))

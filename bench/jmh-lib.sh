# Shared by bench/compare-jars.sh and bench/compare-peers.sh (sourced, not run).

# The score of a JMH console output file: its result line is
# "<Benchmark> <params...> <Mode> <Cnt> <Score> ± <Error> <Units>"; prints Score.
score() {
  awk '/^Benchmark/ {hdr=1; next} hdr && NF >= 5 && $0 !~ /^#/ && $0 !~ /^$/ {
         for (i = 1; i <= NF; i++) if ($i == "±" || $i == "?") { print $(i-1); exit }
         print $(NF-1); exit }' "$1"
}

# The median of the numbers on standard input, one per line.
median() { sort -g | awk '{a[NR]=$1} END {if (NR % 2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }

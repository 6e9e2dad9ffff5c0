# Sourced by the bench scripts (tools/bench/bench*.sh): reading simc's summary
# line ("simc: complete: N steps (t = T s) in W s wall, ... mean contacts C,
# contact iterations median A mean B max C, ...").

field() {  # field NAME LINE: the number after NAME in simc's summary line
  sed -n "s/.*$1 \([-+0-9.eE]*\).*/\1/p" <<<"$2"
}

# read_summary LINE: the figures of the summary line into steps, wall,
# status, ncon, med, mean, max
read_summary() {
  steps=$(sed -n 's/.*: \([0-9]*\) steps (t = .*/\1/p' <<<"$1")
  wall=$(field "s) in" "$1")
  status=$(sed -n 's/^simc: \([^:]*\):.*/\1/p' <<<"$1")
  ncon=$(field "mean contacts" "$1")
  med=$(field "iterations median" "$1")
  mean=$(sed -n 's/.*median [0-9]* mean \([0-9.]*\).*/\1/p' <<<"$1")
  max=$(sed -n 's/.*mean [0-9.]* max \([0-9]*\),.*/\1/p' <<<"$1")
}

# made_by COMMAND: the provenance line of a results page (the command, the
# commit, the date, the CPU and the load while it ran)
made_by() {
  echo "Made by \`$1\` ($(git describe --always --dirty 2>/dev/null)) on $(date -u +%Y-%m-%d),"
  echo "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load average $(cut -d' ' -f1 /proc/loadavg)."
}

#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, started by hand (no systemd): munged with its socket in a private
# folder, slurmctld and slurmd as root with their pids recorded. For trying the recipes of docs/scale.md ("Slurm")
# and for the scheduler tests (Tests/LaminaCLITests/SchedulerTests.swift).
#
#   tools/slurm-cluster.sh start [DIR]   # prints the environment to use: eval "$(tools/slurm-cluster.sh start)"
#   tools/slurm-cluster.sh stop DIR      # stops the daemons by pid and removes DIR
#
# Everything lives in DIR (default: a new folder under ${TMPDIR:-/tmp}): the munge key and socket, slurm.conf,
# cgroup.conf, the controller's state, the daemons' logs and pid files. The ports are free ones picked at start, so
# two clusters (two test runs) can live side by side. Needs Debian's slurm-wlm and munge (tools/setup.sh) and root
# (slurmd starts jobs as the user who submits them).
set -euo pipefail

usage() { echo "usage: $0 start [DIR] | stop DIR" >&2; exit 2; }

free_port() {
    local port
    for _ in $(seq 1 200); do
        port=$((20000 + RANDOM % 20000))
        if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then echo "$port"; return; fi
    done
    echo "slurm-cluster: no free port" >&2; exit 1
}

# Runs "$@" with no descriptor above 2 open: a daemon must not keep the caller's pipes or sockets (a caller
# waiting for their end, as Foundation's Process does, would wait for ever).
without_inherited_fds() (
    for fd in /proc/$BASHPID/fd/*; do
        fd=${fd##*/}
        ((fd > 2)) && eval "exec $fd>&-" 2>/dev/null || true
    done
    exec "$@"
)

stop_pid_file() {
    local file=$1 pid
    [ -s "$file" ] || return 0
    pid=$(cat "$file")
    # Only a process that is still the daemon we started (its command line names our folder).
    if [ -r "/proc/$pid/cmdline" ] && tr '\0' ' ' <"/proc/$pid/cmdline" | grep -qF "$dir"; then
        kill "$pid" 2>/dev/null || true
        for _ in $(seq 1 50); do [ -d "/proc/$pid" ] || break; sleep 0.1; done
        [ -d "/proc/$pid" ] && kill -9 "$pid" 2>/dev/null || true
    fi
    rm -f "$file"
}

stop() {
    dir=$1
    [ -d "$dir" ] || return 0
    [ -f "$dir/slurm.conf" ] || { echo "slurm-cluster: $dir is not a cluster folder" >&2; exit 2; }
    # Jobs first (so none is left running under a stopped slurmd), then the daemons, munged last.
    if [ -s "$dir/slurmctld.pid" ]; then
        SLURM_CONF="$dir/slurm.conf" scancel --quiet --full --user="$(id -un)" 2>/dev/null || true
    fi
    stop_pid_file "$dir/slurmd.pid"
    stop_pid_file "$dir/slurmctld.pid"
    stop_pid_file "$dir/munged.pid"
    rm -rf "$dir"
}

start() {
    for tool in munged mungekey slurmctld slurmd sbatch squeue scontrol scancel; do
        command -v "$tool" >/dev/null || PATH="$PATH:/usr/sbin:/sbin" command -v "$tool" >/dev/null || {
            echo "slurm-cluster: $tool is missing (tools/setup.sh installs slurm-wlm and munge)" >&2; exit 1; }
    done
    export PATH="$PATH:/usr/sbin:/sbin"
    [ "$(id -u)" = 0 ] || { echo "slurm-cluster: run as root (slurmd starts the jobs as their users)" >&2; exit 1; }
    dir=${1:-$(mktemp -d "${TMPDIR:-/tmp}/lamina-slurm.XXXXXX")}
    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd)
    chmod 0755 "$dir"
    # If anything below fails, nothing is left running.
    trap 'echo "slurm-cluster: start failed; logs:" >&2; tail -n 20 "$dir"/*.log >&2 2>/dev/null; stop "$dir"' ERR

    mkdir -p "$dir/munge" "$dir/state" "$dir/spool"
    chmod 0700 "$dir/munge" "$dir/state"
    mungekey --create --keyfile="$dir/munge/munge.key" >/dev/null 2>&1 \
        || dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
    chmod 0400 "$dir/munge/munge.key"
    # --force: the folder is under /tmp, which munged would otherwise refuse as writable by others.
    without_inherited_fds munged --force --socket="$dir/munge/munge.socket" --key-file="$dir/munge/munge.key" \
        --pid-file="$dir/munged.pid" --log-file="$dir/munged.log" --seed-file="$dir/munge/munged.seed"

    local host ctld_port slurmd_port cpus
    host=$(hostname -s)
    ctld_port=$(free_port)
    slurmd_port=$(free_port)
    while [ "$slurmd_port" = "$ctld_port" ]; do slurmd_port=$(free_port); done
    # Four job slots even on a two-core machine (config_overrides trusts these numbers over the hardware's), so a
    # four-task array runs at once, as on a real node.
    cpus=$(nproc); ((cpus < 4)) && cpus=4
    cat >"$dir/slurm.conf" <<EOF
# A one-node cluster for lamina's scheduler tests (tools/slurm-cluster.sh).
ClusterName=lamina
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SwitchType=switch/none
MpiDefault=none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SlurmdParameters=config_overrides
ReturnToService=2
# Finished jobs stay known to scontrol for 10 minutes: there is no accounting database (slurmdbd) to ask.
MinJobAge=600
KillWait=5
NodeName=lamina NodeHostname=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=1000 State=UNKNOWN
PartitionName=debug Nodes=lamina Default=YES MaxTime=INFINITE State=UP
EOF
    cat >"$dir/cgroup.conf" <<EOF
# Not used by proctrack/linuxproc and task/none; present so that slurmd finds no system-wide one.
CgroupPlugin=autodetect
IgnoreSystemd=yes
EOF
    export SLURM_CONF="$dir/slurm.conf"
    # Both daemonize and write their pid files; -i: ignore state from an earlier run (there is none).
    without_inherited_fds slurmctld -i -f "$SLURM_CONF"
    without_inherited_fds slurmd -N lamina -f "$SLURM_CONF"

    # Ready when the node takes jobs.
    local state=""
    for _ in $(seq 1 150); do
        state=$(sinfo -h -n lamina -o %T 2>/dev/null || true)
        case "$state" in idle*|mixed*|allocated*) break ;; esac
        sleep 0.2
    done
    case "$state" in
        idle*|mixed*|allocated*) ;;
        *) echo "slurm-cluster: the node did not come up (state '${state:-unknown}')" >&2; false ;;
    esac
    trap - ERR
    echo "export SLURM_CONF=$SLURM_CONF"
    echo "# stop with: $0 stop $dir"
}

case "${1:-}" in
    start) shift; start "$@" ;;
    stop) [ $# -eq 2 ] || usage; stop "$2" ;;
    *) usage ;;
esac

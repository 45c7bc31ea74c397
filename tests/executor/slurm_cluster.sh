#!/usr/bin/env bash
# A real single-node SLURM cluster for the executor tests, run as the current
# user in a folder of the build tree: munged on its own socket, slurmctld and
# slurmd on free ports of 127.0.0.1, and a GRES "gpu" of four /dev/null files,
# so `srun --gres=gpu:1` is scheduled (and pins CUDA_VISIBLE_DEVICES) on a
# machine without a GPU. The test fixture (ctest FIXTURES_SETUP/CLEANUP).
#
#   slurm_cluster.sh up DIR      starts it; DIR/slurm.conf is its SLURM_CONF
#   slurm_cluster.sh down DIR    stops what `up` started (by the pids it wrote)
#
# Without the slurm binaries this fails loudly: scripts/install-deps.sh
# installs them (slurmctld slurmd slurm-client munge).
set -euo pipefail
cmd=${1:?usage: slurm_cluster.sh up|down DIR}
dir=${2:?usage: slurm_cluster.sh up|down DIR}

down() {
  for name in slurmd slurmctld munged; do
    local pidfile=$dir/$name.pid
    [[ -f $pidfile ]] || continue
    local pid
    pid=$(cat "$pidfile")
    if kill -0 "$pid" 2>/dev/null; then
      kill "$pid" 2>/dev/null || true
      for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      kill -9 "$pid" 2>/dev/null || true
    fi
    rm -f "$pidfile"
  done
}

if [[ $cmd == down ]]; then
  down
  exit 0
fi

missing=()
for tool in munged slurmctld slurmd srun sbatch scontrol sinfo; do
  command -v "$tool" >/dev/null || [[ -x /usr/sbin/$tool ]] || missing+=("$tool")
done
if ((${#missing[@]})); then
  echo "slurm_cluster: FAIL: ${missing[*]} not installed (scripts/install-deps.sh installs slurmctld slurmd slurm-client munge)" >&2
  exit 1
fi
export PATH=$PATH:/usr/sbin

down  # a cluster left over from an interrupted run
rm -rf "$dir"
mkdir -p "$dir"/{state,spool,dev}
chmod 755 "$dir"
user=$(id -un)
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
ctld_port=$(free_port)
slurmd_port=$(free_port)
while [[ $slurmd_port == "$ctld_port" ]]; do slurmd_port=$(free_port); done

# munge: a key of our own, its socket in DIR (not the system's /run/munge).
dd if=/dev/urandom of="$dir/munge.key" bs=1024 count=1 status=none
chmod 600 "$dir/munge.key"
munged --force --socket="$dir/munge.sock" --key-file="$dir/munge.key" --log-file="$dir/munged.log" \
  --pid-file="$dir/munged.pid" --seed-file="$dir/munged.seed"

for i in 0 1 2 3; do ln -s /dev/null "$dir/dev/gpu$i"; done
cat >"$dir/gres.conf" <<CONF
AutoDetect=off
NodeName=stark0 Name=gpu File=$dir/dev/gpu[0-3]
CONF
# SlurmUser/SlurmdUser: whoever runs the tests (root on CI, anyone else too).
# linuxproc + task/none: no cgroups, which a container or a non-root user lacks.
# config_overrides: the node may claim more CPUs than the machine has, so
# four workers fit on a 2-core machine.
cat >"$dir/slurm.conf" <<CONF
ClusterName=starktest
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
AuthInfo=socket=$dir/munge.sock
CredType=cred/munge
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
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/builtin
GresTypes=gpu
MpiDefault=none
ReturnToService=2
SlurmdParameters=config_overrides
InactiveLimit=0
KillWait=2
MinJobAge=10
NodeName=stark0 NodeAddr=127.0.0.1 NodeHostname=$(hostname) CPUs=8 RealMemory=2000 Gres=gpu:4 State=UNKNOWN
PartitionName=test Nodes=stark0 Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$dir/slurm.conf
slurmctld -f "$SLURM_CONF" -i
slurmd -f "$SLURM_CONF" -N stark0
for _ in $(seq 100); do
  state=$(sinfo -h -n stark0 -o %T 2>/dev/null || true)
  [[ $state == idle ]] && break
  sleep 0.2
done
if [[ $state != idle ]]; then
  echo "slurm_cluster: FAIL: the node did not come up (state '${state:-none}'); logs in $dir:" >&2
  tail -n 5 "$dir/slurmctld.log" "$dir/slurmd.log" >&2 || true
  down
  exit 1
fi
echo "slurm_cluster: up in $dir (slurmctld on 127.0.0.1:$ctld_port, 4 gpu GRES)"

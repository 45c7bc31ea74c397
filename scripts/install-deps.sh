#!/usr/bin/env bash
# Installs STARK's build and test dependencies from Debian packages, and checks
# for the CUDA 13 toolkit (not installable from a registry; must already be at
# $CUDA_HOME or /usr/local/cuda).
#
#   scripts/install-deps.sh            build + test dependencies
#   scripts/install-deps.sh --no-test  build dependencies only
set -euo pipefail

want_tests=1
[[ ${1:-} == --no-test ]] && want_tests=0

build_pkgs=(
  cmake ninja-build g++ git pkg-config
  clang-19 libclang-19-dev llvm-19-dev
  nlohmann-json3-dev libcurl4-openssl-dev libssl-dev libcli11-dev libfmt-dev
  libdtl-dev libxxhash-dev libzstd-dev zstd
)
test_pkgs=(
  libgtest-dev libgmock-dev libcpp-httplib-dev python3 python3-jsonschema
  python3-yaml chromium  # the CI workflow check; the HTML report rendering test
  clang-format-19  # the source_format test
  clang-tidy-19    # scripts/check-tidy.sh
  slurmctld slurmd slurm-client munge  # the slurm executor's tests run a one-node cluster
)

pkgs=("${build_pkgs[@]}")
((want_tests)) && pkgs+=("${test_pkgs[@]}")

sudo=""
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null || { echo "install-deps: need root or sudo to install packages" >&2; exit 1; }
  sudo=sudo
fi

missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "install-deps: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "install-deps: all Debian packages present"
fi

cuda=${CUDA_HOME:-/usr/local/cuda}
problems=()
[[ -x $cuda/bin/nvcc ]] || problems+=("nvcc not found at $cuda/bin/nvcc")
[[ -f $cuda/include/cuda.h ]] || problems+=("CUDA headers not found at $cuda/include")
[[ -d $cuda/include/cccl ]] || problems+=("CCCL headers not found at $cuda/include/cccl (CUDA 13 layout expected)")
if [[ -x $cuda/bin/nvcc ]]; then
  ver=$("$cuda/bin/nvcc" --version | sed -n 's/.*release \([0-9]*\)\..*/\1/p')
  [[ ${ver:-0} -ge 13 ]] || problems+=("CUDA $ver found at $cuda; STARK needs CUDA 13 or newer")
fi
if ((${#problems[@]})); then
  echo "install-deps: the CUDA toolkit is not usable:" >&2
  printf '  - %s\n' "${problems[@]}" >&2
  echo "  Install CUDA 13 from NVIDIA (https://developer.nvidia.com/cuda-downloads) or set CUDA_HOME." >&2
  exit 1
fi
echo "install-deps: CUDA toolkit OK at $cuda"

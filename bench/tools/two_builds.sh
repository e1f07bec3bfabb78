# bench/tools/two_builds.sh: the arguments of the scripts that compare two goldi
# builds (ab.sh, ir.sh), sourced by them. two_builds NAME DEFAULT_SIZES GOLDI_A
# GOLDI_B [WORKLOAD:SIZE ...] sets goldi_a and goldi_b (absolute paths, checked
# to be executables), out (OUT or a fresh directory under /tmp, created) and the
# array work (the WORKLOAD:SIZE arguments, else DEFAULT_SIZES split on blanks).
two_builds() {
  local name=$1 defaults=$2
  shift 2
  goldi_a=$(realpath "$1") goldi_b=$(realpath "$2")
  shift 2
  for tool in "$goldi_a" "$goldi_b"; do
    [[ -x $tool ]] || { echo "$name: $tool is not an executable goldi" >&2; exit 2; }
  done
  out=${OUT:-$(mktemp -d "/tmp/goldi-${name%.sh}.XXXXXX")}
  mkdir -p "$out"
  work=("$@")
  # (-d '': the defaults span several lines)
  [[ ${#work[@]} -gt 0 ]] || read -r -d '' -a work <<< "$defaults" || true
}

# Sourced by install-browser.sh and install-node.sh: install a Debian package for some tests when
# this user can (root with apt-get); otherwise say in one French line what to run. Never fails,
# so that the tests still run (the ones that need the package skip, or fail with CI=true).
#
#   debian_install SCRIPT TOOL PURPOSE SKIPPED HINT PACKAGE...
#   e.g. debian_install install-node node "le test de parité des calculs" "sera sauté" "" nodejs
debian_install() {
  local script="$1" tool="$2" purpose="$3" skipped="$4" hint="$5"
  shift 5
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "$script : $tool absent, installation du paquet Debian $*" >&2
    if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null; }; then
      echo "$script : l'installation de $* a échoué ; $purpose $skipped" >&2
    fi
  else
    echo "$script : $tool absent ; pour $purpose, lancez en root : apt-get install $*${hint:+ $hint}" >&2
  fi
}

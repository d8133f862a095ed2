#!/bin/sh
# Replace assets/api-reference.js, the API reference page's bundle (/docs), with Scalar's standalone bundle of the
# given version of @scalar/api-reference (its whole dependency tree, which wants Node 22, stays out of ours).
# Usage: scripts/update-api-reference.sh 1.72.1
set -eu
version="${1:?usage: $0 VERSION}"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
(cd "$dir" && npm pack --silent "@scalar/api-reference@$version" >/dev/null && tar -xzf scalar-api-reference-*.tgz)
cp "$dir/package/dist/browser/standalone.js" "$(dirname "$0")/../assets/api-reference.js"
echo "assets/api-reference.js is now @scalar/api-reference $version's standalone bundle; check /docs, and the LICENSE file beside it."

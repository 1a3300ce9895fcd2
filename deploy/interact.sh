#!/bin/sh
# interact.sh: send one signed slash command to a local `tankbot serve`, as
# Discord would (docs/deployment.md, "Try serve locally"). Needs openssl 3
# and curl; KEY is the Ed25519 private key whose public half serve has in
# TANKBOT_PUBLIC_KEY.
#
#   deploy/interact.sh USER COMMAND [NAME VALUE]...
#   deploy/interact.sh 111 challenge opponent @222 thread false
#   deploy/interact.sh 222 accept
#
# A value written @ID is a user option (type 6); true/false a boolean; any
# other a string. URL (default http://127.0.0.1:8080/interactions), KEY
# (default key.pem), GUILD and CHANNEL (default 1 and 2) may be set.
set -eu
url=${URL:-http://127.0.0.1:8080/interactions}
key=${KEY:-key.pem}
guild=${GUILD:-1}
channel=${CHANNEL:-2}
user=$1 name=$2
shift 2
opts= users=
while [ $# -ge 2 ]; do
	case $2 in
	@*) v=${2#@}; o="{\"name\":\"$1\",\"type\":6,\"value\":\"$v\"}"
	    users="$users${users:+,}\"$v\":{\"id\":\"$v\",\"username\":\"user$v\"}" ;;
	true|false) o="{\"name\":\"$1\",\"type\":5,\"value\":$2}" ;;
	*) o="{\"name\":\"$1\",\"type\":3,\"value\":\"$2\"}" ;;
	esac
	opts="$opts${opts:+,}$o"
	shift 2
done
n=$(date +%s)$$
body="{\"id\":\"9$n\",\"application_id\":\"${APP:-100000000000000001}\",\"type\":2,\"token\":\"tok$n\",\"version\":1,\
\"guild_id\":\"$guild\",\"channel_id\":\"$channel\",\"locale\":\"en-US\",\"guild_locale\":\"en-US\",\
\"member\":{\"user\":{\"id\":\"$user\",\"username\":\"user$user\"}},\
\"data\":{\"id\":\"1\",\"name\":\"$name\",\"type\":1,\"options\":[$opts],\"resolved\":{\"users\":{$users}}}}"
stamp=$(date +%s)
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
printf '%s%s' "$stamp" "$body" > "$tmp"
sig=$(openssl pkeyutl -sign -inkey "$key" -rawin -in "$tmp" | od -An -tx1 | tr -d ' \n')
curl -sS -X POST "$url" -H 'Content-Type: application/json' \
	-H "X-Signature-Ed25519: $sig" -H "X-Signature-Timestamp: $stamp" --data-binary "$body"
echo

#!/bin/sh
# How 441ce77.db was made: by the code of commit 441ce77 (the last before
# bot/ was split into layers), so that TestOldDatabase proves a database
# written by it opens and plays on. Run from a checkout of this repository.
set -e
old=$(mktemp -d)
git worktree add --detach "$old/src" 441ce77
(cd "$old/src" && go build -o "$old/tankbot" ./cmd/tankbot)
here=$(pwd)/bot/app/testdata/olddb
db="$old/441ce77.db"
# 1. Server settings (Manage Server: not possible from the console) and a
#    daily puzzle post, a day before the games.
cp "$here/gen_test.go.txt" "$old/src/bot/olddb_gen_test.go"
(cd "$old/src" && OLD_FIXTURE_DB="$db" go test ./bot -run TestMakeOldFixture -count=1)
# 2. The games: a flag-fall, a game left running with a clock, a resigned
#    Camelot game, a pending Gungi challenge, a tournament with entrants, a
#    game against the computer (its moves are outbox posts), /settings.
(cat "$here/console-1.txt"; sleep 15; cat "$here/console-2.txt"; sleep 15; echo quit) |
	"$old/tankbot" play --db "$db" --no-game --web off 2>&1 |
	sed "/^image: /d; s#database .*; boards in [^ ]*\.#database 441ce77.db; boards in (cache).#" > "$here/console.log"
# 3. A crash before delivery: three delivered posts (the daily puzzle, the
#    flag-fall's final board, the computer's last move) back to pending,
#    so the new code must decode and send rows in the old form.
sqlite3 "$db" "update outbox set state='pending', message_id='', done_at=0, attempts=0, claimed_until=0 where id in (1,3,7)" \
	"pragma wal_checkpoint(truncate)" "vacuum"
cp "$db" "$here/441ce77.db"
git worktree remove --force "$old/src"

package store

import (
	"context"
	"database/sql"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/tankbot/tankbot/store/storetest"
)

// TestMigrationsPaired: every SQLite migration has its PostgreSQL version
// under the same number and name, and the other way round.
func TestMigrationsPaired(t *testing.T) {
	lite, err := migrations(false)
	if err != nil {
		t.Fatal(err)
	}
	pg, err := migrations(true)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(lite, pg) {
		t.Fatalf("migrations/ has %v but migrations_pg/ has %v: port each migration to both dialects (docs/store.md)", lite, pg)
	}
}

// TestSchemasAgree migrates a fresh database of each dialect and compares
// what they hold: tables, columns (type class, nullability, default) and
// index names. A migration changed in one dialect only fails here.
func TestSchemasAgree(t *testing.T) {
	ctx := context.Background()
	lite := open(t, storetest.SQLite(t), nil)
	pg := open(t, storetest.Postgres(t), nil)
	a, err := sqliteSchema(ctx, lite.w)
	if err != nil {
		t.Fatal(err)
	}
	b, err := pgSchema(ctx, pg.w)
	if err != nil {
		t.Fatal(err)
	}
	if len(a) < 7 {
		t.Fatalf("introspection found only %d SQLite objects: %v", len(a), a)
	}
	t.Logf("%d schema lines, e.g. %q", len(a), a[:3])
	for _, l := range diffLines(a, b) {
		t.Error(l)
	}
}

// Type classes shared by the dialects' spellings.
func typeClass(decl string) string {
	switch strings.ToLower(decl) {
	case "integer", "bigint":
		return "integer"
	case "text":
		return "text"
	case "real", "double precision":
		return "real"
	case "blob", "bytea":
		return "bytes"
	}
	return "?" + decl
}

var castSuffix = regexp.MustCompile(`::[a-z ]+$`)

// sqliteSchema lists "table.column class null=… default=…" and "index name"
// lines.
func sqliteSchema(ctx context.Context, db *sql.DB) ([]string, error) {
	var tables, out []string // "created" indexes (origin c) leave out the implicit ones of primary keys
	rows, err := db.QueryContext(ctx, `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return nil, err
		}
		tables = append(tables, name)
	}
	if err := rows.Close(); err != nil {
		return nil, err
	}
	for _, tb := range tables {
		rows, err := db.QueryContext(ctx, `SELECT name, "unique" FROM pragma_index_list(?) WHERE origin = 'c'`, tb)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var name string
			var unique int
			if err := rows.Scan(&name, &unique); err != nil {
				return nil, err
			}
			out = append(out, index(name, unique == 1))
		}
		if err := rows.Close(); err != nil {
			return nil, err
		}
		rows, err = db.QueryContext(ctx, `SELECT name, type, "notnull", dflt_value, pk FROM pragma_table_info(?)`, tb)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var name, typ string
			var notnull, pk int
			var dflt sql.NullString
			if err := rows.Scan(&name, &typ, &notnull, &dflt, &pk); err != nil {
				return nil, err
			}
			out = append(out, column(tb, name, typeClass(typ), notnull == 1 || pk > 0, dflt.String))
		}
		if err := rows.Close(); err != nil {
			return nil, err
		}
	}
	slices.Sort(out)
	return out, nil
}

func pgSchema(ctx context.Context, db *sql.DB) ([]string, error) {
	var out []string
	rows, err := db.QueryContext(ctx, `SELECT table_name, column_name, data_type, is_nullable, COALESCE(column_default, '')
		FROM information_schema.columns WHERE table_schema = current_schema()`)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var tb, name, typ, nullable, dflt string
		if err := rows.Scan(&tb, &name, &typ, &nullable, &dflt); err != nil {
			return nil, err
		}
		out = append(out, column(tb, name, typeClass(typ), nullable == "NO", castSuffix.ReplaceAllString(dflt, "")))
	}
	if err := rows.Close(); err != nil {
		return nil, err
	}
	// Primary keys are left out on both sides.
	rows, err = db.QueryContext(ctx, `SELECT i.relname, x.indisunique FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
		JOIN pg_namespace n ON n.oid = i.relnamespace WHERE n.nspname = current_schema() AND NOT x.indisprimary`)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var name string
		var unique bool
		if err := rows.Scan(&name, &unique); err != nil {
			return nil, err
		}
		out = append(out, index(name, unique))
	}
	if err := rows.Close(); err != nil {
		return nil, err
	}
	slices.Sort(out)
	return out, nil
}

func column(table, name, class string, notNull bool, dflt string) string {
	return fmt.Sprintf("%s.%s %s not_null=%v default=%s", table, name, class, notNull, dflt)
}

func index(name string, unique bool) string {
	return fmt.Sprintf("index %s unique=%v", name, unique)
}

// diffLines names what only one side has.
func diffLines(lite, pg []string) []string {
	var out []string
	for _, l := range lite {
		if !slices.Contains(pg, l) {
			out = append(out, "only in SQLite: "+l)
		}
	}
	for _, l := range pg {
		if !slices.Contains(lite, l) {
			out = append(out, "only in PostgreSQL: "+l)
		}
	}
	return out
}

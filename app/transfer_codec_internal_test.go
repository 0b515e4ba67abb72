package app

import (
	"reflect"
	"testing"
)

func TestSnakeName(t *testing.T) {
	for in, want := range map[string]string{
		"ID": "id", "GroupID": "group_id", "BDIParts": "bdi_parts", "IsSicro": "is_sicro",
		"SupplyBDI": "supply_bdi", "CreatedAt": "created_at", "PNDI": "pndi", "Code": "code",
	} {
		if got := snakeName(in); got != want {
			t.Errorf("snakeName(%q) = %q, want %q", in, got, want)
		}
	}
	if got := snakePointer("/Resources/3/Locals/MG/PNDI"); got != "/resources/3/locals/MG/pndi" {
		t.Errorf("snakePointer: %q", got)
	}
}

// Every struct of the export format has distinct snake_case member names:
// version 2 can be read back into the Go types.
func TestExportNamesDistinct(t *testing.T) {
	seen := map[reflect.Type]bool{}
	var visit func(t reflect.Type)
	visit = func(typ reflect.Type) {
		for typ.Kind() == reflect.Pointer || typ.Kind() == reflect.Slice || typ.Kind() == reflect.Map {
			typ = typ.Elem()
		}
		if typ.Kind() != reflect.Struct || seen[typ] || typ == timeType || typ == decimalType {
			return
		}
		seen[typ] = true
		names := map[string]string{}
		for _, f := range fields(typ) {
			if other, ok := names[f.name]; ok {
				t.Errorf("%s: %s and %s are both %q", typ, other, f.goName, f.name)
			}
			names[f.name] = f.goName
			visit(f.typ)
		}
	}
	visit(reflect.TypeFor[CompanyExport]())
	if len(seen) < 5 {
		t.Errorf("visited %d structs", len(seen))
	}
}

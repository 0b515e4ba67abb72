package domain_test

import (
	"strings"
	"testing"

	"github.com/costdb/costdb/domain"
	"github.com/google/go-cmp/cmp"
)

func stage(desc string, items ...domain.BudgetNode) domain.BudgetNode {
	return domain.BudgetNode{Kind: domain.NodeStage, Description: desc, Items: items}
}

func line(kind domain.NodeKind, bank, code, qty string) domain.BudgetNode {
	return domain.BudgetNode{Kind: kind, Bank: bank, Code: code, Quantity: dec(qty)}
}

func validBudget() *domain.Budget {
	b := &domain.Budget{
		Code: "ORC-1", Description: "Casa", Client: "Maria", State: "MG",
		Banks:   []domain.BankRef{{Name: "SINAPI", State: "MG", Month: "08/2026"}},
		BDI:     dec("25"),
		BDIMode: domain.BDIOnUnitPrice, Rounding: domain.BudgetTruncate,
		Items: []domain.BudgetNode{
			stage("Fundação",
				line(domain.NodeComposition, "SINAPI", "89306", "120.5"),
				stage("Blocos", line(domain.NodeResource, "SINAPI", "34586", "1000")),
			),
			stage("Alvenaria", line(domain.NodeComposition, "MYBASE", "C-1", "2")),
			line(domain.NodeResource, "MYBASE", "R-1", "3"),
		},
	}
	b.AssignIDs()
	return b
}

// outline returns "number id kind" for every node, in tree order.
func outline(b *domain.Budget) []string {
	var out []string
	for _, e := range b.Outline() {
		out = append(out, e.Number+" "+e.Node.ID+" "+string(e.Node.Kind))
	}
	return out
}

func TestBudgetNumberingAndIDs(t *testing.T) {
	b := validBudget()
	want := []string{
		"1 n1 stage", "1.1 n2 composition", "1.2 n3 stage", "1.2.1 n4 resource",
		"2 n5 stage", "2.1 n6 composition",
		"3 n7 resource",
	}
	if diff := cmp.Diff(want, outline(b)); diff != "" {
		t.Errorf("outline (-want +got):\n%s", diff)
	}
	var ptrs []string
	var depths, parents []int
	for _, e := range b.Outline() {
		ptrs = append(ptrs, e.Pointer)
		depths = append(depths, e.Depth)
		parents = append(parents, e.Parent)
	}
	wantPtrs := []string{"/items/0", "/items/0/items/0", "/items/0/items/1", "/items/0/items/1/items/0", "/items/1", "/items/1/items/0", "/items/2"}
	if diff := cmp.Diff(wantPtrs, ptrs); diff != "" {
		t.Errorf("pointers (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]int{1, 2, 2, 3, 1, 2, 1}, depths); diff != "" {
		t.Errorf("depths (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]int{-1, 0, 0, 2, -1, 4, -1}, parents); diff != "" {
		t.Errorf("parents (-want +got):\n%s", diff)
	}
	if n := b.Lines(); n != 4 {
		t.Errorf("Lines = %d, want 4", n)
	}
	// Numbers follow positions: removing the first stage renumbers the rest,
	// IDs stay, and a new node gets a new ID, never a freed one.
	if err := b.RemoveNode("n1"); err != nil {
		t.Fatal(err)
	}
	id, err := b.AddNode("", -1, stage("Cobertura"))
	if err != nil {
		t.Fatal(err)
	}
	want = []string{"1 n5 stage", "1.1 n6 composition", "2 n7 resource", "3 n8 stage"}
	if id != "n8" {
		t.Errorf("new node id = %s, want n8", id)
	}
	if diff := cmp.Diff(want, outline(b)); diff != "" {
		t.Errorf("after remove and add (-want +got):\n%s", diff)
	}
}

func TestBudgetNodeOperations(t *testing.T) {
	for _, tc := range []struct {
		name  string
		op    func(b *domain.Budget) error
		want  []string // outline after; nil when the op fails
		field string   // the field error expected, when the op fails
		code  string   // the error code expected, when the op fails
	}{
		{"add a line into a nested stage at the front", func(b *domain.Budget) error {
			_, err := b.AddNode("n3", 0, line(domain.NodeResource, "SINAPI", "34649", "5"))
			return err
		}, []string{"1 n1 stage", "1.1 n2 composition", "1.2 n3 stage", "1.2.1 n8 resource", "1.2.2 n4 resource",
			"2 n5 stage", "2.1 n6 composition", "3 n7 resource"}, "", ""},
		{"add a stage with children", func(b *domain.Budget) error {
			_, err := b.AddNode("", 1, stage("Nova", line(domain.NodeComposition, "SINAPI", "89478", "1")))
			return err
		}, []string{"1 n1 stage", "1.1 n2 composition", "1.2 n3 stage", "1.2.1 n4 resource",
			"2 n8 stage", "2.1 n9 composition", "3 n5 stage", "3.1 n6 composition", "4 n7 resource"}, "", ""},
		{"add under a line", func(b *domain.Budget) error {
			_, err := b.AddNode("n2", -1, stage("X"))
			return err
		}, nil, "/parent_id", domain.EINVALID},
		{"add under an unknown node", func(b *domain.Budget) error {
			_, err := b.AddNode("n99", -1, stage("X"))
			return err
		}, nil, "/parent_id", domain.EINVALID},
		{"add past the end", func(b *domain.Budget) error {
			_, err := b.AddNode("n5", 2, stage("X"))
			return err
		}, nil, "/position", domain.EINVALID},
		{"add a bad line", func(b *domain.Budget) error {
			_, err := b.AddNode("n5", -1, line(domain.NodeResource, "ORSE", "1", "0"))
			return err
		}, nil, "/bank", domain.EINVALID},
		{"move a stage to the end of the top level", func(b *domain.Budget) error { return b.MoveNode("n1", "", -1) },
			[]string{"1 n5 stage", "1.1 n6 composition", "2 n7 resource", "3 n1 stage", "3.1 n2 composition",
				"3.2 n3 stage", "3.2.1 n4 resource"}, "", ""},
		{"move a line into another stage", func(b *domain.Budget) error { return b.MoveNode("n7", "n3", 0) },
			[]string{"1 n1 stage", "1.1 n2 composition", "1.2 n3 stage", "1.2.1 n7 resource", "1.2.2 n4 resource",
				"2 n5 stage", "2.1 n6 composition"}, "", ""},
		{"move within its stage", func(b *domain.Budget) error { return b.MoveNode("n2", "n1", 1) },
			[]string{"1 n1 stage", "1.1 n3 stage", "1.1.1 n4 resource", "1.2 n2 composition",
				"2 n5 stage", "2.1 n6 composition", "3 n7 resource"}, "", ""},
		{"move a stage into itself", func(b *domain.Budget) error { return b.MoveNode("n1", "n1", -1) },
			nil, "/parent_id", domain.EINVALID},
		{"move a stage into its child", func(b *domain.Budget) error { return b.MoveNode("n1", "n3", -1) },
			nil, "/parent_id", domain.EINVALID},
		{"move to a position out of range", func(b *domain.Budget) error { return b.MoveNode("n7", "", 3) },
			nil, "/position", domain.EINVALID},
		{"move an unknown node", func(b *domain.Budget) error { return b.MoveNode("n99", "", -1) },
			nil, "", domain.ENOTFOUND},
		{"remove a stage and its children", func(b *domain.Budget) error { return b.RemoveNode("n3") },
			[]string{"1 n1 stage", "1.1 n2 composition", "2 n5 stage", "2.1 n6 composition", "3 n7 resource"}, "", ""},
		{"remove an unknown node", func(b *domain.Budget) error { return b.RemoveNode("n99") },
			nil, "", domain.ENOTFOUND},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := validBudget()
			before := outline(b)
			err := tc.op(b)
			if tc.want == nil {
				if domain.ErrorCode(err) != tc.code {
					t.Fatalf("err = %v, want code %s", err, tc.code)
				}
				if tc.field != "" && !contains(fields(err), tc.field) {
					t.Errorf("err = %v, want a field error on %s", err, tc.field)
				}
				if diff := cmp.Diff(before, outline(b)); diff != "" {
					t.Errorf("a failed operation changed the budget (-before +after):\n%s", diff)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, outline(b)); diff != "" {
				t.Errorf("outline (-want +got):\n%s", diff)
			}
			if err := b.Validate(); err != nil {
				t.Errorf("budget after the operation: %v", err)
			}
		})
	}
}

// TestBudgetLimits checks the caps on depth and lines: the first level too
// deep of each branch is named, relative to the subtree checked, and the
// operations themselves no longer refuse a deep tree (the caps are the
// service's settings).
func TestBudgetLimits(t *testing.T) {
	b := validBudget() // 3 levels deep (1.2.1), 4 lines
	for _, tc := range []struct {
		name              string
		limits            domain.BudgetLimits
		under, linesField string
		want              []domain.FieldError
		plain             bool
	}{
		{"within the caps", domain.BudgetLimits{Depth: 3, Lines: 4}, "", "/items", nil, false},
		{"no caps", domain.BudgetLimits{}, "", "/items", nil, false},
		{"too deep", domain.BudgetLimits{Depth: 2, Lines: 4}, "", "/items",
			[]domain.FieldError{{Field: "/items/0/items/1/items/0", Message: "is nested 3 levels deep; a budget's tree has at most 2 levels, lines included"}}, false},
		{"too deep, every branch", domain.BudgetLimits{Depth: 1}, "", "/items", []domain.FieldError{
			{Field: "/items/0/items/0", Message: "is nested 2 levels deep; a budget's tree has at most 1 levels, lines included"},
			{Field: "/items/0/items/1", Message: "is nested 2 levels deep; a budget's tree has at most 1 levels, lines included"},
			{Field: "/items/1/items/0", Message: "is nested 2 levels deep; a budget's tree has at most 1 levels, lines included"},
		}, false},
		{"too deep, in a subtree", domain.BudgetLimits{Depth: 1}, "/items/0", "", []domain.FieldError{
			{Field: "/items/0", Message: "is nested 2 levels deep; a budget's tree has at most 1 levels, lines included"},
			{Field: "/items/1", Message: "is nested 2 levels deep; a budget's tree has at most 1 levels, lines included"},
		}, false},
		{"the subtree's root too deep", domain.BudgetLimits{Depth: 2}, "/items/0/items/1/items/0", "", []domain.FieldError{
			{Field: "", Message: "is nested 3 levels deep; a budget's tree has at most 2 levels, lines included"},
		}, false},
		{"too many lines", domain.BudgetLimits{Depth: 10, Lines: 3}, "", "/items",
			[]domain.FieldError{{Field: "/items", Message: "the budget would hold 4 lines; a budget holds at most 3"}}, false},
		{"too many lines, plain", domain.BudgetLimits{Depth: 10, Lines: 3}, "/items/2", "", nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.limits.Check(b, tc.under, tc.linesField)
			if tc.want == nil && !tc.plain {
				if err != nil {
					t.Fatalf("err %v, want nil", err)
				}
				return
			}
			if domain.ErrorCode(err) != domain.EINVALID {
				t.Fatalf("err %v, want EINVALID", err)
			}
			if diff := cmp.Diff(tc.want, domain.ErrorFields(err)); diff != "" {
				t.Errorf("fields (-want +got):\n%s", diff)
			}
			if tc.plain && domain.ErrorMessage(err) != "the budget would hold 4 lines; a budget holds at most 3" {
				t.Errorf("message %q", domain.ErrorMessage(err))
			}
		})
	}
	// The operations build any depth; Check is what refuses it.
	parent := ""
	for i := 0; i < domain.DefaultMaxBudgetDepth; i++ {
		id, err := b.AddNode(parent, -1, stage("nível"))
		if err != nil {
			t.Fatalf("level %d: %v", i+1, err)
		}
		parent = id
	}
	if err := domain.DefaultBudgetLimits().Check(b, "", "/items"); err != nil {
		t.Errorf("%d levels: %v", domain.DefaultMaxBudgetDepth, err)
	}
	if err := b.MoveNode("n1", parent, -1); err != nil {
		t.Fatal(err)
	}
	err := domain.DefaultBudgetLimits().Check(b, "", "/items")
	if fields := domain.ErrorFields(err); len(fields) != 1 || !strings.HasSuffix(fields[0].Field, "/items/0") ||
		strings.Count(fields[0].Field, "/items") != domain.DefaultMaxBudgetDepth+1 {
		t.Errorf("after a move past the cap: %v", err)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestBudgetValidate(t *testing.T) {
	if err := validBudget().Validate(); err != nil {
		t.Fatalf("valid budget: %v", err)
	}
	for _, tc := range []struct {
		name   string
		change func(b *domain.Budget)
		want   []string
	}{
		{"no code", func(b *domain.Budget) { b.Code = "" }, []string{"/code"}},
		{"no description", func(b *domain.Budget) { b.Description = " " }, []string{"/description"}},
		{"long client", func(b *domain.Budget) { b.Client = strings.Repeat("x", 256) }, []string{"/client"}},
		{"bad state", func(b *domain.Budget) { b.State = "XX" }, []string{"/state"}},
		{"negative BDI", func(b *domain.Budget) { b.BDI = dec("-1") }, []string{"/bdi"}},
		{"BDI with 5 places", func(b *domain.Budget) { b.BDI = dec("25.00001") }, []string{"/bdi"}},
		{"bad modes", func(b *domain.Budget) { b.BDIMode, b.Rounding = "total", "" }, []string{"/bdi_mode", "/rounding"}},
		{"a bank twice", func(b *domain.Budget) {
			b.Banks = append(b.Banks, domain.BankRef{Name: "SINAPI", State: "MG", Month: "09/2026"})
		}, []string{"/banks/1/name"}},
		{"bad bank month", func(b *domain.Budget) { b.Banks[0].Month = "2026-08" }, []string{"/banks/0/version"}},
		{"a line of a bank the budget lacks", func(b *domain.Budget) { b.Items[0].Items[0].Bank = "ORSE" },
			[]string{"/items/0/items/0/bank"}},
		{"a nested line without code or quantity", func(b *domain.Budget) {
			n := &b.Items[0].Items[1].Items[0]
			n.Code, n.Quantity = "", dec("0")
		}, []string{"/items/0/items/1/items/0/code", "/items/0/items/1/items/0/quantity"}},
		{"a quantity with 8 places", func(b *domain.Budget) { b.Items[2].Quantity = dec("0.00000001") }, []string{"/items/2/quantity"}},
		{"a stage without description", func(b *domain.Budget) { b.Items[1].Description = "" }, []string{"/items/1/description"}},
		{"a stage with a code", func(b *domain.Budget) { b.Items[1].Code = "X" }, []string{"/items/1/kind"}},
		{"a line with a description and items", func(b *domain.Budget) {
			b.Items[2].Description = "minha descrição"
			b.Items[2].Items = []domain.BudgetNode{stage("x")}
		}, []string{"/items/2/description", "/items/2/items"}},
		{"an unknown kind", func(b *domain.Budget) { b.Items[0].Items[0].Kind = "service" }, []string{"/items/0/items/0/kind"}},
		{"a line without bank", func(b *domain.Budget) { b.Items[2].Bank = "" }, []string{"/items/2/bank"}},
	} {
		b := validBudget()
		tc.change(b)
		err := b.Validate()
		if domain.ErrorCode(err) != domain.EINVALID {
			t.Errorf("%s: code %q, want %q (err %v)", tc.name, domain.ErrorCode(err), domain.EINVALID, err)
			continue
		}
		if diff := cmp.Diff(tc.want, fields(err)); diff != "" {
			t.Errorf("%s: fields (-want +got):\n%s", tc.name, diff)
		}
	}
}

func TestBudgetClone(t *testing.T) {
	b := validBudget()
	c := b.Clone()
	c.Items[0].Items[1].Items[0].Quantity = dec("1")
	c.Items[0].Items = append(c.Items[0].Items, stage("x"))
	c.Banks[0].Month = "01/2020"
	if diff := cmp.Diff(validBudget(), b, decEqual); diff != "" {
		t.Errorf("changing a clone changed the budget (-want +got):\n%s", diff)
	}
}

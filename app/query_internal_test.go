package app

import (
	"testing"
)

func TestFold(t *testing.T) {
	tests := []struct{ in, want string }{
		{"ALVENARIA", "alvenaria"},
		{"Água Fria", "agua fria"},
		{"REVESTIMENTO CERÂMICO", "revestimento ceramico"},
		{"ESCAVAÇÃO", "escavacao"},
		{"Pêssego, órgão, à, ü", "pessego, orgao, a, u"},
		{"a\u0301gua", "agua"}, // decomposed: a + combining acute
		{"m³ × 2", "m³ × 2"},   // no case, no accent: unchanged
		{"", ""},
	}
	for _, tt := range tests {
		if got := fold(tt.in); got != tt.want {
			t.Errorf("fold(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestNaturalCompare(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"9", "10", -1},
		{"10", "9", 1},
		{"88309", "100001", -1},
		{"000123", "123", 0},
		{"000123", "88316", -1},
		{"alv-001", "alv-3", -1},
		{"alv-10", "alv-9", 1},
		{"e9017", "e9017a", -1},
		{"abc", "abd", -1},
		{"", "0", -1},
		{"123", "e1", -1},
	}
	for _, tt := range tests {
		if got := naturalCompare(tt.a, tt.b); got != tt.want {
			t.Errorf("naturalCompare(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

package app

import (
	"strconv"
	"strings"

	"github.com/costdb/costdb/domain"
)

// Catalog is one list of the codes a field takes (the seed's Enum schema),
// so that clients offer them instead of hard-coding them.
type Catalog struct {
	// Name is the catalogue's identifier, used in paths: resource_types,
	// units, composition_classes, states, calculation_methods, banks.
	Name string
	// Description says what the codes are and which field takes them.
	Description string
	Entries     []domain.EnumEntry
}

// catalogs are built once from the domain's tables, in the order listed.
var catalogs = []Catalog{
	{
		Name:        "resource_types",
		Description: "Resource types: the type of a resource (v1 type, v2 resource_type)",
		Entries:     domain.SortedEnum(domain.ResourceTypes),
	},
	{
		Name:        "units",
		Description: "Units of measure in common use in SINAPI and SICRO (units are free text; these are the usual ones)",
		Entries:     namedList(domain.Units, domain.UnitNames),
	},
	{
		Name:        "composition_classes",
		Description: "Composition classes (SINAPI): the type of a composition (v1 type, v2 composition_type)",
		Entries:     domain.SortedEnum(domain.CompositionClasses),
	},
	{
		Name:        "states",
		Description: "Brazilian states (UF): v1 local and state, v2 location, bank editions",
		Entries:     domain.SortedEnum(domain.States),
	},
	{
		Name:        "calculation_methods",
		Description: "Calculation methods: how a composition cuts each line total and its unit cost (rounding_type)",
		Entries:     roundingMethods(),
	},
	{
		Name:        "banks",
		Description: "Reference banks an item or a bank edition names (MYBASE is the company's own base)",
		Entries:     namedList(domain.KnownBanks, domain.BankNames),
	},
}

// namedList keeps the order of codes, naming each from names (the code
// itself when names has none).
func namedList(codes []string, names map[string]string) []domain.EnumEntry {
	out := make([]domain.EnumEntry, len(codes))
	for i, c := range codes {
		name := names[c]
		if name == "" {
			name = c
		}
		out[i] = domain.EnumEntry{Code: c, Name: name}
	}
	return out
}

func roundingMethods() []domain.EnumEntry {
	out := make([]domain.EnumEntry, len(domain.RoundingMethods))
	for i, m := range domain.RoundingMethods {
		out[i] = domain.EnumEntry{Code: strconv.Itoa(int(m)), Name: m.Description()}
	}
	return out
}

// Catalogs returns every catalogue, in a fixed order. The result is a copy.
func (s *Service) Catalogs() []Catalog {
	out := make([]Catalog, len(catalogs))
	for i, c := range catalogs {
		out[i] = c.clone()
	}
	return out
}

// Catalog returns the catalogue with the name. Returns ENOTFOUND for an
// unknown name.
func (s *Service) Catalog(name string) (Catalog, error) {
	for _, c := range catalogs {
		if c.Name == name {
			return c.clone(), nil
		}
	}
	names := make([]string, len(catalogs))
	for i, c := range catalogs {
		names[i] = c.Name
	}
	return Catalog{}, domain.Errorf(domain.ENOTFOUND, "no catalogue named %q (catalogues: %s)", name, strings.Join(names, ", "))
}

func (c Catalog) clone() Catalog {
	c.Entries = append([]domain.EnumEntry(nil), c.Entries...)
	return c
}

package domain

import (
	"sort"
	"strconv"
)

// States maps each Brazilian state code (UF) to its name.
var States = map[string]string{
	"AC": "Acre", "AL": "Alagoas", "AP": "Amapá", "AM": "Amazonas", "BA": "Bahia",
	"CE": "Ceará", "DF": "Distrito Federal", "ES": "Espírito Santo", "GO": "Goiás",
	"MA": "Maranhão", "MT": "Mato Grosso", "MS": "Mato Grosso do Sul", "MG": "Minas Gerais",
	"PA": "Pará", "PB": "Paraíba", "PR": "Paraná", "PE": "Pernambuco", "PI": "Piauí",
	"RJ": "Rio de Janeiro", "RN": "Rio Grande do Norte", "RS": "Rio Grande do Sul",
	"RO": "Rondônia", "RR": "Roraima", "SC": "Santa Catarina", "SP": "São Paulo",
	"SE": "Sergipe", "TO": "Tocantins",
}

// ValidState reports whether s is a state code (upper case, as published).
func ValidState(s string) bool {
	_, ok := States[s]
	return ok
}

// ValidMonth reports whether s is a reference month in the shape MM/YYYY.
func ValidMonth(s string) bool {
	// MM/YYYY: a month 01 to 12, a year 1900 to 2199.
	if len(s) != 7 || s[2] != '/' {
		return false
	}
	for _, i := range []int{0, 1, 5, 6} {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	mm := (s[0]-'0')*10 + s[1] - '0'
	century := s[3:5]
	return mm >= 1 && mm <= 12 && (century == "19" || century == "20" || century == "21")
}

// Resource types of the origin system.
const (
	TypeEquipment          = 1
	TypePermanentEquipment = 2
	TypeLabor              = 3
	TypeMaterial           = 4
	TypeServices           = 5
	TypeFees               = 6
	TypeOthers             = 7
	TypeFranchise          = 8
	TypeAdministration     = 9
	TypeRent               = 10
	TypeAllowance          = 11
	TypeConsulting         = 12
	TypeTransport          = 13
	TypeDirectBilling      = 101
)

// ResourceTypes maps each resource type integer to its name.
var ResourceTypes = map[int]string{
	TypeEquipment:          "Equipamento",
	TypePermanentEquipment: "Equipamento para aquisição permanente",
	TypeLabor:              "Mão de obra",
	TypeMaterial:           "Material",
	TypeServices:           "Serviços",
	TypeFees:               "Taxas",
	TypeOthers:             "Outros",
	TypeFranchise:          "Verba",
	TypeAdministration:     "Administração",
	TypeRent:               "Aluguel",
	TypeAllowance:          "Abono",
	TypeConsulting:         "Consultoria",
	TypeTransport:          "Transporte",
	TypeDirectBilling:      "Faturamento direto",
}

// ValidResourceType reports whether t is a known resource type.
func ValidResourceType(t int) bool {
	_, ok := ResourceTypes[t]
	return ok
}

// CompositionClasses maps each SINAPI composition class code to its name.
var CompositionClasses = map[string]string{
	"ASTU": "Assentamento de tubos e peças",
	"CANT": "Canteiro de obras",
	"CHOR": "Custos horários de máquinas e equipamentos",
	"COBE": "Cobertura",
	"DROP": "Drenagem/obras de contenção/poços de visita e caixas",
	"ESCO": "Escoramento",
	"ESQV": "Esquadrias/ferragens/vidros",
	"FOMA": "Fornecimento de materiais e equipamentos",
	"FUES": "Fundações e estruturas",
	"IMPE": "Impermeabilizações e proteções diversas",
	"INEL": "Instalação elétrica/eletrificação e iluminação externa",
	"INES": "Instalações especiais",
	"INHI": "Instalações hidro sanitárias",
	"INPR": "Instalações de produção",
	"LIPR": "Ligações prediais água/esgoto/energia/telefone",
	"MOVT": "Movimento de terra",
	"PARE": "Paredes/painéis",
	"PAVI": "Pavimentação",
	"PINT": "Pinturas",
	"PISO": "Pisos",
	"REVE": "Revestimento e tratamento de superfícies",
	"SEDI": "Serviços diversos",
	"SEEM": "Serviços empreitados",
	"SEES": "Serviços especiais",
	"SEOP": "Serviços operacionais",
	"SERP": "Serviços preliminares",
	"SERT": "Serviços técnicos",
	"TRAN": "Transportes, cargas e descargas",
	"URBA": "Urbanização",
}

// ValidCompositionClass reports whether c is a known composition class.
func ValidCompositionClass(c string) bool {
	_, ok := CompositionClasses[c]
	return ok
}

// Units lists the units of measure in common use in SINAPI and SICRO. Units
// are free text (a bank may publish one not listed here); this list is what a
// client offers by default.
var Units = []string{
	"UN", "M", "M2", "M3", "KG", "T", "L", "H", "MES", "DIA", "CJ", "PAR", "JG",
	"KM", "T.KM", "M3.KM", "M3XKM", "TXKM", "VB", "CHP", "CHI", "dm³", "m²", "m³", "kg", "h", "un", "t", "m",
}

// KnownBanks lists the reference banks a user will name. BankMyBase is the
// company's own base.
var KnownBanks = []string{
	"SINAPI", "SICRO3", "ORSE", "SEINFRA", "SBC", "SETOP", "CPOS", "EMOP", "FDE", "SIURB", BankMyBase,
}

// UnitNames names each unit of Units.
var UnitNames = map[string]string{
	"UN": "unidade", "M": "metro", "M2": "metro quadrado", "M3": "metro cúbico",
	"KG": "quilograma", "T": "tonelada", "L": "litro", "H": "hora", "MES": "mês",
	"DIA": "dia", "CJ": "conjunto", "PAR": "par", "JG": "jogo", "KM": "quilômetro",
	"T.KM": "tonelada × quilômetro", "M3.KM": "metro cúbico × quilômetro",
	"M3XKM": "metro cúbico × quilômetro", "TXKM": "tonelada × quilômetro", "VB": "verba",
	"CHP": "custo horário produtivo", "CHI": "custo horário improdutivo",
	"dm³": "decímetro cúbico", "m²": "metro quadrado", "m³": "metro cúbico",
	"kg": "quilograma", "h": "hora", "un": "unidade", "t": "tonelada", "m": "metro",
}

// BankNames names each bank of KnownBanks: who publishes it.
var BankNames = map[string]string{
	"SINAPI":   "SINAPI: Sistema Nacional de Pesquisa de Custos e Índices da Construção Civil (Caixa, IBGE)",
	"SICRO3":   "SICRO: Sistema de Custos Referenciais de Obras (DNIT)",
	"ORSE":     "ORSE: Orçamento de Obras de Sergipe (CEHOP-SE)",
	"SEINFRA":  "SEINFRA: tabela de custos da Secretaria da Infraestrutura do Ceará",
	"SBC":      "SBC: informativo de preços da construção",
	"SETOP":    "SETOP: tabela de preços de obras de Minas Gerais",
	"CPOS":     "CPOS: Companhia Paulista de Obras e Serviços (SP)",
	"EMOP":     "EMOP: Empresa de Obras Públicas do Estado do Rio de Janeiro",
	"FDE":      "FDE: Fundação para o Desenvolvimento da Educação (SP)",
	"SIURB":    "SIURB: Secretaria de Infraestrutura Urbana e Obras de São Paulo",
	BankMyBase: "Base própria da empresa",
}

// EnumEntry is one value of a catalogue: a code and its human name.
type EnumEntry struct {
	Code string
	Name string
}

// SortedEnum turns a catalogue map into entries sorted by code (numerically
// when every code is a number).
func SortedEnum[K int | string](m map[K]string) []EnumEntry {
	out := make([]EnumEntry, 0, len(m))
	keys := make([]K, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
	for _, k := range keys {
		var code string
		switch v := any(k).(type) {
		case int:
			code = strconv.Itoa(v)
		case string:
			code = v
		}
		out = append(out, EnumEntry{Code: code, Name: m[k]})
	}
	return out
}

package v2

import (
	"net/http"
	"strconv"

	"github.com/costdb/costdb/adapters/httpapi"
	"github.com/costdb/costdb/domain"
)

// The boletim and the accumulated statement of a contract are streamed, as
// the budget reports are (docs/decisions.md "Streamed reports"), each row
// encoded as it is sent, so the first byte does not wait for the whole
// document (a statement of 5,000 lines and 36 measurements is 180,000
// figures). The boletim is computed and its figures checked (a 409 before
// anything is sent), then written, byte for byte what writeDoc wrote from
// boletimDoc; the statement is computed line by line as it is written, its
// rows before the figures that need them all, so its members come in
// another order than writeDoc's (the same document as JSON:
// TestContractStreamsAreTheDocuments).

// figuresProblem answers 409 when a figure is out of bounds.
func (h *handlers) figuresProblem(w http.ResponseWriter, r *http.Request, out bool) bool {
	if out {
		h.writeError(w, r, domain.ErrFiguresOut())
	}
	return out
}

// streamBoletim answers the boletim's JSON:API document (fields[boletins]
// keeps only the attributes named).
func (h *handlers) streamBoletim(w http.ResponseWriter, r *http.Request, b *domain.Boletim) {
	if h.figuresProblem(w, r, b.FiguresOut()) {
		return
	}
	m, c := b.Measurement, b.Contract
	set := fieldsOf(r).of("boletins")
	httpapi.StreamJSON(w, mediaType, func(j *httpapi.JSONWriter) {
		j.Raw(`{"data":{"type":"boletins","id":`)
		j.String(m.ContractID + ":" + strconv.Itoa(m.Number))
		j.Raw(`,"attributes":{`)
		a := attrWriter{j: j, set: set}
		if a.key("contract_number") {
			j.String(c.Number)
		}
		if a.key("contractor") {
			j.String(c.Contractor)
		}
		if a.key("measurement") {
			j.Int(m.Number)
		}
		if a.key("net") {
			j.Money(b.Net)
		}
		if a.key("period_end") {
			j.String(m.PeriodEnd)
		}
		if a.key("period_start") {
			j.String(m.PeriodStart)
		}
		if a.key("period_total") {
			j.Money(b.PeriodTotal)
		}
		if a.key("readjustment") {
			if b.Readjustment.Valid {
				j.Money(b.Readjustment.Decimal)
			} else {
				j.Null()
			}
		}
		if a.key("readjustment_factor") {
			if b.ReadjustmentFactor.Valid {
				j.Number(httpapi.Num(b.ReadjustmentFactor.Decimal))
			} else {
				j.Null()
			}
		}
		if a.key("readjustment_note") {
			j.StringOrNull(strOrNil(b.ReadjustmentNote))
		}
		if a.key("retention") {
			j.Money(b.Retention)
		}
		if a.key("rows") {
			j.Raw("[")
			for i := range b.Rows {
				if j.Err() != nil {
					return // the client went away
				}
				if i > 0 {
					j.Raw(",")
				}
				j.Value(boletimRowOf(&b.Rows[i]))
			}
			j.Raw("]")
		}
		if a.key("stages") {
			j.Raw("[")
			for i, st := range b.Stages {
				if i > 0 {
					j.Raw(",")
				}
				j.Value(stageDoc(st))
			}
			j.Raw("]")
		}
		if a.key("status") {
			j.String(string(m.Status))
		}
		if a.key("totals") {
			j.Value(stageDoc(b.Totals))
		}
		j.Raw(`}}}`)
	})
}

// streamStatement answers the accumulated statement's JSON:API document,
// computed line by line as it is written (domain.StatementEach): the rows
// first, then the measurements' numbers, totals and retentions and the
// contract's figures, which need every row (fields[contract-statements]
// keeps only the attributes named). A row whose figures are out of bounds
// (impossible for a contract made from a version: what is measured never
// passes what is contracted) cuts the answer short.
func (h *handlers) streamStatement(w http.ResponseWriter, r *http.Request, s *domain.ContractState, all []*domain.Measurement) {
	set := fieldsOf(r).of("contract-statements")
	httpapi.StreamJSON(w, mediaType, func(j *httpapi.JSONWriter) {
		j.Raw(`{"data":{"type":"contract-statements","id":`)
		j.String(s.Contract.ID)
		j.Raw(`,"attributes":{`)
		a := attrWriter{j: j, set: set}
		rows := a.key("rows")
		if rows {
			j.Raw("[")
		}
		first := true
		st, err := s.StatementEach(all, func(row *domain.StatementRow) error {
			if j.Err() != nil {
				return errClientGone
			}
			if row.FiguresOut() {
				return domain.ErrFiguresOut()
			}
			if rows {
				if !first {
					j.Raw(",")
				}
				first = false
				j.Value(statementRowOf(row))
			}
			return nil
		})
		switch {
		case err == errClientGone:
			return
		case err != nil:
			h.env.LogStatus(r, http.StatusInternalServerError, err)
			panic(http.ErrAbortHandler)
		}
		if rows {
			j.Raw("]")
		}
		if a.key("measurements") {
			j.Raw("[")
			for i, m := range st.Measurements {
				if i > 0 {
					j.Raw(",")
				}
				j.Int(m.Number)
			}
			j.Raw("]")
		}
		if a.key("totals") {
			j.Value(moneys(st.Totals))
		}
		if a.key("retentions") {
			j.Value(moneys(st.Retentions))
		}
		if a.key("accumulated") {
			j.Money(st.Accumulated)
		}
		if a.key("balance") {
			j.Money(st.Balance)
		}
		if a.key("contracted") {
			j.Money(st.Contracted)
		}
		j.Raw(`}}}`)
	})
}

package v2

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"io"
	"net/http"
	"strconv"

	"github.com/costdb/costdb/adapters/httpapi"
	"github.com/costdb/costdb/adapters/reports"
	"github.com/costdb/costdb/domain"
	"github.com/go-chi/chi/v5"
)

// A contract's planned against measured (domain.Progress, docs/contracts.md):
//
//	GET /contracts/{id}/progress        JSON:API "contract-progress" (?format=csv for the CSV)
//	GET /contracts/{id}/progress.svg    both S curves on one chart
func (h *handlers) contractProgressRoutes(r chi.Router) {
	r.Get("/contracts/{id}/progress", h.getProgress)
	r.Get("/contracts/{id}/progress.svg", h.progressChart)
}

type progressDoc struct {
	ID         string              `jsonapi:"primary,contract-progress"`
	Version    int                 `jsonapi:"attr,version"`
	Start      string              `jsonapi:"attr,start"`
	PeriodDays *int                `jsonapi:"attr,period_days"`
	Planned    json.Number         `jsonapi:"attr,planned"`
	Measured   json.Number         `jsonapi:"attr,measured"`
	Current    json.Number         `jsonapi:"attr,current"`
	Periods    []progressPeriodDoc `jsonapi:"attr,periods"`
}

type progressPeriodDoc struct {
	Label               string      `json:"label"`
	Planned             json.Number `json:"planned"`
	Measured            json.Number `json:"measured"`
	PlannedAccumulated  json.Number `json:"planned_accumulated"`
	MeasuredAccumulated json.Number `json:"measured_accumulated"`
	PlannedPercent      json.Number `json:"planned_percent"`
	MeasuredPercent     json.Number `json:"measured_percent"`
	Deviation           json.Number `json:"deviation"`
	Measurements        []int       `json:"measurements"`
}

func progressOf(pg *domain.Progress) *progressDoc {
	s := pg.Table.Schedule
	d := &progressDoc{ID: pg.Contract.ID, Version: pg.Contract.VersionNumber, Start: s.Start, Planned: httpapi.Money(pg.Planned),
		Measured: httpapi.Money(pg.Measured), Current: httpapi.Money(pg.Current), Periods: make([]progressPeriodDoc, len(pg.Periods))}
	if s.Days > 0 {
		d.PeriodDays = &s.Days
	}
	for k, p := range pg.Periods {
		ms := p.Measurements
		if ms == nil {
			ms = []int{}
		}
		d.Periods[k] = progressPeriodDoc{Label: p.Label, Planned: httpapi.Money(p.Planned), Measured: httpapi.Money(p.Measured),
			PlannedAccumulated: httpapi.Money(p.PlannedAccumulated), MeasuredAccumulated: httpapi.Money(p.MeasuredAccumulated),
			PlannedPercent: httpapi.Num(p.PlannedPercent), MeasuredPercent: httpapi.Num(p.MeasuredPercent),
			Deviation: httpapi.Money(p.Deviation), Measurements: ms}
	}
	return d
}

// getProgress handles GET /contracts/{id}/progress (?format=csv).
func (h *handlers) getProgress(w http.ResponseWriter, r *http.Request) {
	format, ok := h.formatQuery(w, r)
	if !ok {
		return
	}
	pg, err := h.env.App.ContractProgress(r.Context(), principal(r), chi.URLParam(r, "id"))
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	d := progressOf(pg)
	if isCSV(format) {
		h.writeCSV(w, r, nil, "previsto-realizado.csv", func(buf *bytes.Buffer) error {
			cw := csv.NewWriter(buf)
			_ = cw.Write([]string{"periodo", "previsto", "medido", "previsto_acumulado", "medido_acumulado",
				"previsto_acumulado_pct", "medido_acumulado_pct", "desvio", "medicoes"})
			for _, p := range d.Periods {
				var ms []byte
				for i, n := range p.Measurements {
					if i > 0 {
						ms = append(ms, ' ')
					}
					ms = strconv.AppendInt(ms, int64(n), 10)
				}
				_ = cw.Write([]string{p.Label, string(p.Planned), string(p.Measured), string(p.PlannedAccumulated),
					string(p.MeasuredAccumulated), string(p.PlannedPercent), string(p.MeasuredPercent), string(p.Deviation), string(ms)})
			}
			last := d.Periods[len(d.Periods)-1]
			_ = cw.Write([]string{"total", string(d.Planned), string(d.Measured), string(last.PlannedAccumulated),
				string(last.MeasuredAccumulated), string(last.PlannedPercent), string(last.MeasuredPercent), string(last.Deviation), ""})
			cw.Flush()
			return cw.Error()
		})
		return
	}
	h.writeDoc(w, r, http.StatusOK, d)
}

// progressChart handles GET /contracts/{id}/progress.svg.
func (h *handlers) progressChart(w http.ResponseWriter, r *http.Request) {
	h.svgChart(w, r, func() (string, func(io.Writer) error, error) {
		pg, err := h.env.App.ContractProgress(r.Context(), principal(r), chi.URLParam(r, "id"))
		if err != nil {
			return "", nil, err
		}
		return "previsto-realizado.svg", func(w io.Writer) error { return reports.ProgressSVG(w, pg) }, nil
	})
}

package v2

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"

	"github.com/costdb/costdb/adapters/httpapi"
	"github.com/costdb/costdb/adapters/reports"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
	"github.com/go-chi/chi/v5"
	"github.com/google/jsonapi"
)

// A budget's schedule (docs/schedule.md) is the JSON:API type "schedules",
// one per budget, id the budget's:
//
//	PUT    /budgets/{id}/schedule               write it (replaces)
//	GET    /budgets/{id}/schedule               read it, stale and why
//	DELETE /budgets/{id}/schedule
//	GET    /budgets/{id}/schedule/table         the physical-financial table (JSON:API or CSV)
//	GET    /budgets/{id}/schedule/s-curve.svg   the S curve over the periods' totals
//	PUT, GET, DELETE /budgets/{id}/versions/{version}/schedule   a frozen version's own schedule (id "<budget>:<version>")
//	GET    /budgets/{id}/versions/{version}/schedule/table   (and s-curve.svg) over the version
const (
	scheduleType    = "schedules"
	scheduleRowType = "schedule-rows"
)

// scheduleDoc is a schedule as v2 writes it.
type scheduleDoc struct {
	ID         string           `jsonapi:"primary,schedules"`
	Start      string           `jsonapi:"attr,start"`
	PeriodDays *int             `jsonapi:"attr,period_days"`
	Periods    int              `jsonapi:"attr,periods"`
	Rows       []scheduleRowDoc `jsonapi:"attr,rows"`
	Stale      bool             `jsonapi:"attr,stale"`
	Problems   []string         `jsonapi:"attr,problems"`
	UpdatedAt  string           `jsonapi:"attr,updated_at"`
}

type scheduleRowDoc struct {
	NodeID string        `json:"node_id"`
	Shares []json.Number `json:"shares"`
}

// scheduleID is the id of the schedule a request names: the budget's id,
// or "<budget>:<version>" for a frozen version's own schedule (as the
// version's id).
func scheduleID(r *http.Request) string {
	if v := chi.URLParam(r, "version"); v != "" {
		return chi.URLParam(r, "id") + ":" + v
	}
	return chi.URLParam(r, "id")
}

func (h *handlers) scheduleDoc(r *http.Request, s *app.ScheduleInfo) *scheduleDoc {
	d := &scheduleDoc{ID: scheduleID(r), Start: s.Start, Periods: s.Periods, Stale: s.Stale(), Problems: s.Problems,
		UpdatedAt: h.env.FormatTime(s.UpdatedAt), Rows: make([]scheduleRowDoc, len(s.Rows))}
	if s.Days > 0 {
		d.PeriodDays = &s.Days
	}
	if d.Problems == nil {
		d.Problems = []string{}
	}
	for i, r := range s.Rows {
		sh := make([]json.Number, len(r.Shares))
		for k, x := range r.Shares {
			sh[k] = httpapi.Num(x)
		}
		d.Rows[i] = scheduleRowDoc{NodeID: r.NodeID, Shares: sh}
	}
	return d
}

// scheduleRowIn is a row as a request sends it.
type scheduleRowIn struct {
	NodeID string   `json:"node_id"`
	Shares []number `json:"shares"`
}

var (
	aSchStart   = attr{app: "start", names: []string{"start"}, kind: "string"}
	aSchDays    = attr{app: "period_days", names: []string{"period_days"}, kind: "integer"}
	aSchPeriods = attr{app: "periods", names: []string{"periods"}, kind: "integer"}
	aSchRows    = attr{app: "rows", names: []string{"rows"}, kind: "array of {node_id, shares}"}
	// scheduleReadOnly are the attributes v2 writes and never reads.
	scheduleReadOnly = []string{"stale", "problems", "updated_at"}
)

func schedulePatch(b *attrBody) *domain.Schedule {
	s := &domain.Schedule{}
	if v := read[string](b, aSchStart); v != nil {
		s.Start = *v
	}
	if v := read[*int](b, aSchDays); v != nil && *v != nil {
		if s.Days = **v; s.Days < 1 {
			// 0 is not "months": those are null or absent.
			b.wrong.Add(b.attrPointer("period_days"), "must be from 1 to 366 (null or absent: months), not %d", s.Days)
		}
	}
	if v := read[int](b, aSchPeriods); v != nil {
		s.Periods = *v
	}
	if rows := readNumbers[[]scheduleRowIn](b, aSchRows); rows != nil {
		for _, r := range *rows {
			row := domain.ScheduleRow{NodeID: r.NodeID}
			for _, x := range r.Shares {
				row.Shares = append(row.Shares, x.D)
			}
			s.Rows = append(s.Rows, row)
		}
	}
	return s
}

// putSchedule handles PUT /budgets/{id}/schedule.
func (h *handlers) putSchedule(w http.ResponseWriter, r *http.Request) {
	b, sch, ok := readPatch(h, w, r, scheduleType, scheduleID(r), schedulePatch, scheduleReadOnly...)
	if !ok {
		return
	}
	out, err := h.env.App.Rejecting(b.rejected).PutSchedule(r.Context(), principal(r), chi.URLParam(r, "id"), sch)
	if err != nil {
		h.writeErrorAt(w, r, err, b.pointers)
		return
	}
	h.writeDoc(w, r, http.StatusOK, h.scheduleDoc(r, out))
}

// getSchedule handles GET /budgets/{id}/schedule.
func (h *handlers) getSchedule(w http.ResponseWriter, r *http.Request) {
	if _, err := query(r); err != nil {
		h.writeError(w, r, err)
		return
	}
	out, err := h.env.App.Schedule(r.Context(), principal(r), chi.URLParam(r, "id"))
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	h.writeDoc(w, r, http.StatusOK, h.scheduleDoc(r, out))
}

// deleteSchedule handles DELETE /budgets/{id}/schedule.
func (h *handlers) deleteSchedule(w http.ResponseWriter, r *http.Request) {
	if _, err := query(r); err != nil {
		h.writeError(w, r, err)
		return
	}
	if err := h.env.App.DeleteSchedule(r.Context(), principal(r), chi.URLParam(r, "id")); err != nil {
		h.writeError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// scheduleTable handles GET /budgets/{id}/schedule/table (and a version's).
func (h *handlers) scheduleTable(w http.ResponseWriter, r *http.Request) {
	q, err := query(r, "format")
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	format, err := reportFormat(r, q)
	if err != nil {
		h.writeReportError(w, r, err)
		return
	}
	t, err := h.env.App.ScheduleTable(r.Context(), principal(r), chi.URLParam(r, "id"))
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	if isCSV(format) {
		h.streamCSV(w, r, exportName(r, t.Budget, "cronograma", "csv"), func(w io.Writer) error { return reports.ScheduleCSV(w, t, csvOptions(format)...) })
		return
	}
	periods := make([]map[string]any, len(t.Periods))
	curve := make([]json.Number, len(t.Periods))
	for k, p := range t.Periods {
		periods[k] = map[string]any{"label": p.Label, "total": httpapi.Money(p.Total), "percent": httpapi.Num(p.Percent),
			"accumulated": httpapi.Money(p.Accumulated), "accumulated_percent": httpapi.Num(p.AccumulatedPercent)}
		curve[k] = httpapi.Num(p.AccumulatedPercent)
	}
	meta := jsonapi.Meta{"budget": metaOf(t.Budget), "rows": len(t.Rows), "periods": periods, "total": httpapi.Money(t.Total),
		"s_curve": curve, "start": t.Schedule.Start}
	if t.Schedule.Days > 0 {
		meta["period_days"] = t.Schedule.Days
	}
	addMissing(meta, httpapi.MissingLines(t.Missing))
	nodes := make([]*jsonapi.Node, len(t.Rows))
	for i, row := range t.Rows {
		shares, cells := make([]json.Number, len(row.Shares)), make([]json.Number, len(row.Cells))
		for k := range row.Shares {
			shares[k] = httpapi.Num(row.Shares[k])
		}
		for k := range row.Cells {
			cells[k] = httpapi.Money(row.Cells[k])
		}
		id := t.Budget.ID + ":" + row.NodeID
		if row.NodeID == "" {
			id = t.Budget.ID + ":bdi"
		}
		nodes[i] = &jsonapi.Node{Type: scheduleRowType, ID: id, Attributes: map[string]any{
			"node_id": strOrNil(row.NodeID), "number": row.Number, "kind": string(row.Kind), "description": row.Description,
			"value": httpapi.Money(row.Value), "shares": shares, "cells": cells,
		}}
	}
	h.writeNodes(w, r, &jsonapi.ManyPayload{Data: nodes, Meta: &meta, Links: selfLink(r)})
}

// scheduleChart handles GET /budgets/{id}/schedule/s-curve.svg: the
// periods' totals as bars and the accumulated percent as the S curve.
func (h *handlers) scheduleChart(w http.ResponseWriter, r *http.Request) {
	h.svgChart(w, r, func() (string, func(io.Writer) error, error) {
		t, err := h.env.App.ScheduleTable(r.Context(), principal(r), chi.URLParam(r, "id"))
		if err != nil {
			return "", nil, err
		}
		return reports.Filename(t.Budget, "curva-s", "svg"), func(w io.Writer) error { return reports.ScheduleSVG(w, t) }, nil
	})
}

// svgChart answers a chart: the query must be empty and Accept allow
// image/svg+xml (406 otherwise); get computes it (its file name and what
// draws it), and it is answered inline.
func (h *handlers) svgChart(w http.ResponseWriter, r *http.Request, get func() (string, func(io.Writer) error, error)) {
	if _, err := query(r); err != nil {
		h.writeError(w, r, err)
		return
	}
	if _, ok := httpapi.Preferred(r.Header.Values("Accept"), reports.SVGMediaType); !ok {
		h.writeReportError(w, r, domain.Errorf(eNotAcceptable, "the chart is image/svg+xml: Accept must allow it"))
		return
	}
	name, draw, err := get()
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	var buf bytes.Buffer
	if err := draw(&buf); err != nil {
		h.writeError(w, r, err)
		return
	}
	httpapi.WriteExport(w, reports.SVGMediaType, "inline", name, buf.Bytes())
}

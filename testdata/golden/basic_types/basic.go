// Package basic covers the scalar rules: each Go basic type, []byte,
// time.Time, time.Duration, json.RawMessage and the empty interface.
package basic

import (
	"context"
	"encoding/json"
	"time"
)

type Scalars struct {
	Bool     bool            `json:"bool"`
	Int      int             `json:"int"`
	Int8     int8            `json:"int8"`
	Int16    int16           `json:"int16"`
	Int32    int32           `json:"int32"`
	Rune     rune            `json:"rune"`
	Int64    int64           `json:"int64"`
	Uint     uint            `json:"uint"`
	Uint8    uint8           `json:"uint8"`
	Byte     byte            `json:"byte"`
	Uint16   uint16          `json:"uint16"`
	Uint32   uint32          `json:"uint32"`
	Uint64   uint64          `json:"uint64"`
	Uintptr  uintptr         `json:"uintptr"`
	Float32  float32         `json:"float32"`
	Float64  float64         `json:"float64"`
	String   string          `json:"string"`
	Bytes    []byte          `json:"bytes"`
	Time     time.Time       `json:"time"`
	Duration time.Duration   `json:"duration"`
	Raw      json.RawMessage `json:"raw"`
	Any      any             `json:"any"`
	Empty    interface{}     `json:"empty"`
	Number   json.Number     `json:"number"`
}

// Echo returns its arguments.
//
//toolgen:tool
func Echo(ctx context.Context, in Scalars) (Scalars, error) {
	return in, nil
}

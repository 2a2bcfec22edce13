package typeschema

import (
	"cmp"
	"slices"
)

// jsonField is a property of a struct's JSON object, found the way
// encoding/json finds it.
type jsonField struct {
	name   string
	tagged bool
	index  []int
	field  Field
	tag    jsonTag
	// viaPointer: promoted through an embedded pointer, which
	// encoding/json writes nothing of when it is nil.
	viaPointer bool
}

// jsonFields lists the properties encoding/json gives struct type t: exported
// fields named by their json tags, skipped with "-", embedded structs
// flattened, and a name claimed at the same depth by two untagged fields
// dropped, as encoding/json's typeFields does.
func jsonFields(t Type) []jsonField {
	type level struct {
		typ        Type
		index      []int
		viaPointer bool
	}
	var fields []jsonField
	next := []level{{typ: t}}
	var count, nextCount map[any]int
	visited := map[any]bool{}
	for len(next) > 0 {
		current := next
		next = nil
		count, nextCount = nextCount, map[any]int{}
		for _, l := range current {
			if visited[l.typ.ID()] {
				continue
			}
			visited[l.typ.ID()] = true
			for i, sf := range l.typ.Fields() {
				if sf.Embedded {
					et := sf.Type
					if et.Kind() == Pointer {
						et = et.Elem()
					}
					if !sf.Exported && et.Kind() != Struct {
						continue
					}
				} else if !sf.Exported {
					continue
				}
				tag := parseJSONTag(sf.Tag)
				if tag.skip {
					continue
				}
				index := append(slices.Clip(l.index), i)
				ft := sf.Type
				if _, _, named := ft.Name(); !named && ft.Kind() == Pointer {
					ft = ft.Elem()
				}
				if tag.asString {
					switch k := ft.Kind(); {
					case k == Bool, k == String, k.integer(), k.float():
					default:
						tag.asString = false
					}
				}
				if tag.name != "" || !sf.Embedded || ft.Kind() != Struct {
					f := jsonField{name: tag.name, tagged: tag.name != "", index: index, field: sf, tag: tag, viaPointer: l.viaPointer}
					if f.name == "" {
						f.name = sf.Name
					}
					fields = append(fields, f)
					if count[l.typ.ID()] > 1 {
						// Two embeddings of the same type at this depth:
						// add a twin so that the name is annihilated below.
						fields = append(fields, f)
					}
					continue
				}
				nextCount[ft.ID()]++
				if nextCount[ft.ID()] == 1 {
					next = append(next, level{typ: ft, index: index, viaPointer: l.viaPointer || sf.Type.Kind() == Pointer})
				}
			}
		}
	}

	slices.SortStableFunc(fields, func(a, b jsonField) int {
		if c := cmp.Compare(a.name, b.name); c != 0 {
			return c
		}
		if c := cmp.Compare(len(a.index), len(b.index)); c != 0 {
			return c
		}
		if a.tagged != b.tagged {
			if a.tagged {
				return -1
			}
			return 1
		}
		return slices.Compare(a.index, b.index)
	})
	out := fields[:0]
	for i := 0; i < len(fields); {
		j := i + 1
		for j < len(fields) && fields[j].name == fields[i].name {
			j++
		}
		group := fields[i:j]
		if len(group) == 1 || len(group[0].index) != len(group[1].index) || group[0].tagged != group[1].tagged {
			out = append(out, group[0])
		}
		i = j
	}
	slices.SortFunc(out, func(a, b jsonField) int { return slices.Compare(a.index, b.index) })
	return out
}

// JSONField is a property encoding/json decodes a struct's field from:
// its name, whether a json tag gave it, and the field's index path from
// the struct (through the embedded structs it is promoted from).
type JSONField struct {
	Name   string
	Tagged bool
	Index  []int
}

// JSONFields lists the properties of struct type t by encoding/json's
// rules, as its schema's are (jsonFields).
func JSONFields(t Type) []JSONField {
	fs := jsonFields(t)
	out := make([]JSONField, len(fs))
	for i, f := range fs {
		out[i] = JSONField{Name: f.name, Tagged: f.tagged, Index: f.index}
	}
	return out
}

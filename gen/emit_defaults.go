package gen

import (
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"
)

// The code that applies defaults (see defaults.go): a prefilled input's
// assignments, and the functions that set what a call left out.

// selector is target.a.b for a field's path.
func selector(target *jen.Statement, path []pathStep) *jen.Statement {
	s := target.Clone()
	for _, p := range path {
		s = s.Dot(p.name)
	}
	return s
}

func literalCode(f *fieldDefault) jen.Code {
	if f.rawJSON {
		return jen.Qual("encoding/json", "RawMessage").Call(jsonLit(f.value, false))
	}
	return jen.Op(f.literal)
}

// emitDefaultsFunc writes the function that gives the properties an
// object's JSON leaves out their defaults.
func emitDefaultsFunc(f *jen.File, o *objDefaults) {
	var skeleton []jen.Code
	names := map[*fieldDefault]string{}
	used := map[string]bool{}
	for _, fd := range o.fields {
		name := fd.path[len(fd.path)-1].name
		for n := 2; used[name]; n++ {
			name = fd.path[len(fd.path)-1].name + strconv.Itoa(n)
		}
		used[name] = true
		names[fd] = name
		var typ jen.Code = jen.Qual("encoding/json", "RawMessage")
		if fd.value == nil {
			typ = skeletonType(fd.below)
		}
		skeleton = append(skeleton, jen.Id(name).Add(typ).Tag(map[string]string{"json": fd.json}))
	}
	body := []jen.Code{
		jen.Var().Id("given").Struct(skeleton...),
		jen.If(
			jen.Err().Op(":=").Qual(runtimePath, "DecodeArgs").Call(jen.Id("raw"), jen.Op("&").Id("given")),
			jen.Err().Op("!=").Nil(),
		).Block(jen.Return(jen.Err())),
	}
	v := jen.Id("v")
	for _, fd := range o.fields {
		given := jen.Id("given").Dot(names[fd])
		target := selector(v, fd.path)
		if fd.value != nil {
			var set []jen.Code
			// Embedded pointers on the way are allocated, as decoding the
			// property would have.
			at := v.Clone()
			for _, p := range fd.path[:len(fd.path)-1] {
				at = at.Dot(p.name)
				if p.alloc != nil {
					set = append(set, jen.If(at.Clone().Op("==").Nil()).Block(at.Clone().Op("=").New(typeCode(p.alloc))))
				}
			}
			if fd.literal != "" {
				set = append(set, target.Clone().Op("=").Add(literalCode(fd)))
			} else {
				set = append(set, jen.If(
					jen.Err().Op(":=").Qual("encoding/json", "Unmarshal").Call(jen.Index().Byte().Parens(jsonLit(fd.decodedValue(), false)), jen.Op("&").Add(target.Clone())),
					jen.Err().Op("!=").Nil(),
				).Block(jen.Return(jen.Err())))
			}
			if fd.below != nil {
				// What is inside the default gets defaults too.
				set = append(set, given.Clone().Op("=").Qual("encoding/json", "RawMessage").Call(jsonLit(fd.value, false)))
			}
			body = append(body, jen.If(given.Clone().Op("==").Nil()).Block(set...))
		}
		if fd.below == nil {
			continue
		}
		var walk []jen.Code
		if fd.value != nil && !rawSkeleton(fd.below) {
			walk = append(walk,
				jen.Var().Id("elems").Add(skeletonType(fd.below)),
				jen.If(
					jen.Err().Op(":=").Qual(runtimePath, "DecodeArgs").Call(given.Clone(), jen.Op("&").Id("elems")),
					jen.Err().Op("!=").Nil(),
				).Block(jen.Return(jen.Err())))
			given = jen.Id("elems")
		}
		walk = append(walk, walkShape(fd.below, given, target, 0)...)
		// A default below embedded pointers is only set where the call
		// gave the object, which allocated them.
		var guards []jen.Code
		at := v.Clone()
		for _, p := range fd.path[:len(fd.path)-1] {
			at = at.Dot(p.name)
			if p.alloc != nil {
				guards = append(guards, at.Clone().Op("!=").Nil())
			}
		}
		if len(guards) > 0 || len(walk) > 1 {
			cond := jen.Empty()
			for i, g := range guards {
				if i > 0 {
					cond.Op("&&")
				}
				cond.Add(g)
			}
			if len(guards) > 0 {
				body = append(body, jen.If(cond).Block(walk...))
			} else {
				body = append(body, jen.Block(walk...))
			}
			continue
		}
		body = append(body, walk...)
	}
	body = append(body, jen.Return(jen.Nil()))
	f.Line()
	what := o.what
	if what == "" {
		what = "the JSON of " + article(o.name)
	}
	comment(f, o.fn+" gives the properties that raw, "+what+", leaves out their defaults.")
	f.Func().Id(o.fn).Params(jen.Id("raw").Qual("encoding/json", "RawMessage"), jen.Id("v").Op("*").Add(typeCode(o.typ))).Error().Block(body...)
}

// article is name with "a" or "an" before it.
func article(name string) string {
	if name != "" && strings.ContainsRune("AEIOU", rune(name[0])) {
		return "an " + name
	}
	return "a " + name
}

// rawSkeleton reports whether a shape's skeleton is one json.RawMessage: a
// struct, or pointers to one.
func rawSkeleton(s *shape) bool {
	for s.kind == shapePointer {
		s = s.elem
	}
	return s.kind == shapeStruct
}

// skeletonType is what records the given properties of a shape's
// objects: their JSON, in slices, arrays and maps like the shape's.
func skeletonType(s *shape) jen.Code {
	switch s.kind {
	case shapePointer:
		return skeletonType(s.elem)
	case shapeSlice:
		return jen.Index().Add(skeletonType(s.elem))
	case shapeArray:
		return jen.Index(jen.Lit(int(s.len))).Add(skeletonType(s.elem))
	case shapeMap:
		return jen.Map(typeCode(s.key)).Add(skeletonType(s.elem))
	}
	return jen.Qual("encoding/json", "RawMessage")
}

// walkShape applies the defaults of the objects in target, whose JSON
// given records as skeletonType(s).
func walkShape(s *shape, given, target *jen.Statement, depth int) []jen.Code {
	suffix := ""
	if depth > 0 {
		suffix = strconv.Itoa(depth)
	}
	call := func(ptr jen.Code) jen.Code {
		return jen.If(
			jen.Err().Op(":=").Id(s.leaf().fn).Call(given, ptr),
			jen.Err().Op("!=").Nil(),
		).Block(jen.Return(jen.Err()))
	}
	switch s.kind {
	case shapeStruct:
		return []jen.Code{call(jen.Op("&").Add(target))}
	case shapePointer:
		if s.elem.kind == shapeStruct {
			return []jen.Code{jen.If(target.Clone().Op("!=").Nil()).Block(call(target))}
		}
		return []jen.Code{jen.If(target.Clone().Op("!=").Nil()).Block(walkShape(s.elem, given, jen.Parens(jen.Op("*").Add(target)), depth)...)}
	case shapeSlice, shapeArray:
		i, g := jen.Id("i"+suffix), jen.Id("g"+suffix)
		return []jen.Code{jen.For(jen.List(i, g).Op(":=").Range().Add(given)).Block(
			walkShape(s.elem, g, target.Clone().Index(i), depth+1)...)}
	case shapeMap:
		k, g, e := jen.Id("k"+suffix), jen.Id("g"+suffix), jen.Id("e"+suffix)
		body := []jen.Code{e.Clone().Op(":=").Add(target.Clone().Index(k))}
		body = append(body, walkShape(s.elem, g, e, depth+1)...)
		body = append(body, target.Clone().Index(k).Op("=").Add(e))
		return []jen.Code{jen.For(jen.List(k, g).Op(":=").Range().Add(given)).Block(body...)}
	}
	return nil
}

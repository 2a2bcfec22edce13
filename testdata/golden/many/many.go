// Package many covers more tools than one function of the generated file
// lists (50), as functions and as methods: Tools and (*Counter).Tools
// append them through functions of at most 10 tools each.
package many

import "context"

// Counter counts the calls of its tools.
type Counter struct{ N int }

// In is every tool's input.
type In struct {
	// X is a number.
	X int `json:"x"`
}

// F1 doubles x.
//
//toolgen:tool
func F1(ctx context.Context, in In) (int, error) { return 2 * in.X, nil }

// F2 doubles x.
//
//toolgen:tool
func F2(ctx context.Context, in In) (int, error) { return 2 * in.X, nil }

// F3 doubles x.
//
//toolgen:tool
func F3(ctx context.Context, in In) (int, error) { return 2 * in.X, nil }

// F4 doubles x.
//
//toolgen:tool
func F4(ctx context.Context, in In) (int, error) { return 2 * in.X, nil }

// F5 doubles x.
//
//toolgen:tool
func F5(ctx context.Context, in In) (int, error) { return 2 * in.X, nil }

// F6 doubles x.
//
//toolgen:tool
func F6(ctx context.Context, in In) (int, error) { return 2 * in.X, nil }

// F7 doubles x.
//
//toolgen:tool
func F7(ctx context.Context, in In) (int, error) { return 2 * in.X, nil }

// F8 doubles x.
//
//toolgen:tool
func F8(ctx context.Context, in In) (int, error) { return 2 * in.X, nil }

// F9 doubles x.
//
//toolgen:tool
func F9(ctx context.Context, in In) (int, error) { return 2 * in.X, nil }

// F10 doubles x.
//
//toolgen:tool
func F10(ctx context.Context, in In) (int, error) { return 2 * in.X, nil }

// F11 doubles x.
//
//toolgen:tool
func F11(ctx context.Context, in In) (int, error) { return 2 * in.X, nil }

// F12 doubles x.
//
//toolgen:tool
func F12(ctx context.Context, in In) (int, error) { return 2 * in.X, nil }

// F13 doubles x.
//
//toolgen:tool
func F13(ctx context.Context, in In) (int, error) { return 2 * in.X, nil }

// F14 doubles x.
//
//toolgen:tool
func F14(ctx context.Context, in In) (int, error) { return 2 * in.X, nil }

// F15 doubles x.
//
//toolgen:tool
func F15(ctx context.Context, in In) (int, error) { return 2 * in.X, nil }

// F16 doubles x.
//
//toolgen:tool
func F16(ctx context.Context, in In) (int, error) { return 2 * in.X, nil }

// F17 doubles x.
//
//toolgen:tool
func F17(ctx context.Context, in In) (int, error) { return 2 * in.X, nil }

// F18 doubles x.
//
//toolgen:tool
func F18(ctx context.Context, in In) (int, error) { return 2 * in.X, nil }

// F19 doubles x.
//
//toolgen:tool
func F19(ctx context.Context, in In) (int, error) { return 2 * in.X, nil }

// F20 doubles x.
//
//toolgen:tool
func F20(ctx context.Context, in In) (int, error) { return 2 * in.X, nil }

// F21 doubles x.
//
//toolgen:tool
func F21(ctx context.Context, in In) (int, error) { return 2 * in.X, nil }

// F22 doubles x.
//
//toolgen:tool
func F22(ctx context.Context, in In) (int, error) { return 2 * in.X, nil }

// F23 doubles x.
//
//toolgen:tool
func F23(ctx context.Context, in In) (int, error) { return 2 * in.X, nil }

// F24 doubles x.
//
//toolgen:tool
func F24(ctx context.Context, in In) (int, error) { return 2 * in.X, nil }

// F25 doubles x.
//
//toolgen:tool
func F25(ctx context.Context, in In) (int, error) { return 2 * in.X, nil }

// F26 doubles x.
//
//toolgen:tool
func F26(ctx context.Context, in In) (int, error) { return 2 * in.X, nil }

// F27 doubles x.
//
//toolgen:tool
func F27(ctx context.Context, in In) (int, error) { return 2 * in.X, nil }

// F28 doubles x.
//
//toolgen:tool
func F28(ctx context.Context, in In) (int, error) { return 2 * in.X, nil }

// F29 doubles x.
//
//toolgen:tool
func F29(ctx context.Context, in In) (int, error) { return 2 * in.X, nil }

// F30 doubles x.
//
//toolgen:tool
func F30(ctx context.Context, in In) (int, error) { return 2 * in.X, nil }

// F31 doubles x.
//
//toolgen:tool
func F31(ctx context.Context, in In) (int, error) { return 2 * in.X, nil }

// F32 doubles x.
//
//toolgen:tool
func F32(ctx context.Context, in In) (int, error) { return 2 * in.X, nil }

// F33 doubles x.
//
//toolgen:tool
func F33(ctx context.Context, in In) (int, error) { return 2 * in.X, nil }

// F34 doubles x.
//
//toolgen:tool
func F34(ctx context.Context, in In) (int, error) { return 2 * in.X, nil }

// F35 doubles x.
//
//toolgen:tool
func F35(ctx context.Context, in In) (int, error) { return 2 * in.X, nil }

// F36 doubles x.
//
//toolgen:tool
func F36(ctx context.Context, in In) (int, error) { return 2 * in.X, nil }

// F37 doubles x.
//
//toolgen:tool
func F37(ctx context.Context, in In) (int, error) { return 2 * in.X, nil }

// F38 doubles x.
//
//toolgen:tool
func F38(ctx context.Context, in In) (int, error) { return 2 * in.X, nil }

// F39 doubles x.
//
//toolgen:tool
func F39(ctx context.Context, in In) (int, error) { return 2 * in.X, nil }

// F40 doubles x.
//
//toolgen:tool
func F40(ctx context.Context, in In) (int, error) { return 2 * in.X, nil }

// F41 doubles x.
//
//toolgen:tool
func F41(ctx context.Context, in In) (int, error) { return 2 * in.X, nil }

// F42 doubles x.
//
//toolgen:tool
func F42(ctx context.Context, in In) (int, error) { return 2 * in.X, nil }

// F43 doubles x.
//
//toolgen:tool
func F43(ctx context.Context, in In) (int, error) { return 2 * in.X, nil }

// F44 doubles x.
//
//toolgen:tool
func F44(ctx context.Context, in In) (int, error) { return 2 * in.X, nil }

// F45 doubles x.
//
//toolgen:tool
func F45(ctx context.Context, in In) (int, error) { return 2 * in.X, nil }

// F46 doubles x.
//
//toolgen:tool
func F46(ctx context.Context, in In) (int, error) { return 2 * in.X, nil }

// F47 doubles x.
//
//toolgen:tool
func F47(ctx context.Context, in In) (int, error) { return 2 * in.X, nil }

// F48 doubles x.
//
//toolgen:tool
func F48(ctx context.Context, in In) (int, error) { return 2 * in.X, nil }

// F49 doubles x.
//
//toolgen:tool
func F49(ctx context.Context, in In) (int, error) { return 2 * in.X, nil }

// F50 doubles x.
//
//toolgen:tool
func F50(ctx context.Context, in In) (int, error) { return 2 * in.X, nil }

// F51 doubles x.
//
//toolgen:tool
func F51(ctx context.Context, in In) (int, error) { return 2 * in.X, nil }

// F52 doubles x.
//
//toolgen:tool
func F52(ctx context.Context, in In) (int, error) { return 2 * in.X, nil }

// F53 doubles x.
//
//toolgen:tool
func F53(ctx context.Context, in In) (int, error) { return 2 * in.X, nil }

// F54 doubles x.
//
//toolgen:tool
func F54(ctx context.Context, in In) (int, error) { return 2 * in.X, nil }

// F55 doubles x.
//
//toolgen:tool
func F55(ctx context.Context, in In) (int, error) { return 2 * in.X, nil }

// F56 doubles x.
//
//toolgen:tool
func F56(ctx context.Context, in In) (int, error) { return 2 * in.X, nil }

// F57 doubles x.
//
//toolgen:tool
func F57(ctx context.Context, in In) (int, error) { return 2 * in.X, nil }

// F58 doubles x.
//
//toolgen:tool
func F58(ctx context.Context, in In) (int, error) { return 2 * in.X, nil }

// F59 doubles x.
//
//toolgen:tool
func F59(ctx context.Context, in In) (int, error) { return 2 * in.X, nil }

// F60 doubles x.
//
//toolgen:tool
func F60(ctx context.Context, in In) (int, error) { return 2 * in.X, nil }

// M1 counts.
//
//toolgen:tool
func (c *Counter) M1(ctx context.Context, in In) (int, error) { c.N += 1; return c.N, nil }

// M2 counts.
//
//toolgen:tool
func (c *Counter) M2(ctx context.Context, in In) (int, error) { c.N += 2; return c.N, nil }

// M3 counts.
//
//toolgen:tool
func (c *Counter) M3(ctx context.Context, in In) (int, error) { c.N += 3; return c.N, nil }

// M4 counts.
//
//toolgen:tool
func (c *Counter) M4(ctx context.Context, in In) (int, error) { c.N += 4; return c.N, nil }

// M5 counts.
//
//toolgen:tool
func (c *Counter) M5(ctx context.Context, in In) (int, error) { c.N += 5; return c.N, nil }

// M6 counts.
//
//toolgen:tool
func (c *Counter) M6(ctx context.Context, in In) (int, error) { c.N += 6; return c.N, nil }

// M7 counts.
//
//toolgen:tool
func (c *Counter) M7(ctx context.Context, in In) (int, error) { c.N += 7; return c.N, nil }

// M8 counts.
//
//toolgen:tool
func (c *Counter) M8(ctx context.Context, in In) (int, error) { c.N += 8; return c.N, nil }

// M9 counts.
//
//toolgen:tool
func (c *Counter) M9(ctx context.Context, in In) (int, error) { c.N += 9; return c.N, nil }

// M10 counts.
//
//toolgen:tool
func (c *Counter) M10(ctx context.Context, in In) (int, error) { c.N += 10; return c.N, nil }

// M11 counts.
//
//toolgen:tool
func (c *Counter) M11(ctx context.Context, in In) (int, error) { c.N += 11; return c.N, nil }

// M12 counts.
//
//toolgen:tool
func (c *Counter) M12(ctx context.Context, in In) (int, error) { c.N += 12; return c.N, nil }

// M13 counts.
//
//toolgen:tool
func (c *Counter) M13(ctx context.Context, in In) (int, error) { c.N += 13; return c.N, nil }

// M14 counts.
//
//toolgen:tool
func (c *Counter) M14(ctx context.Context, in In) (int, error) { c.N += 14; return c.N, nil }

// M15 counts.
//
//toolgen:tool
func (c *Counter) M15(ctx context.Context, in In) (int, error) { c.N += 15; return c.N, nil }

// M16 counts.
//
//toolgen:tool
func (c *Counter) M16(ctx context.Context, in In) (int, error) { c.N += 16; return c.N, nil }

// M17 counts.
//
//toolgen:tool
func (c *Counter) M17(ctx context.Context, in In) (int, error) { c.N += 17; return c.N, nil }

// M18 counts.
//
//toolgen:tool
func (c *Counter) M18(ctx context.Context, in In) (int, error) { c.N += 18; return c.N, nil }

// M19 counts.
//
//toolgen:tool
func (c *Counter) M19(ctx context.Context, in In) (int, error) { c.N += 19; return c.N, nil }

// M20 counts.
//
//toolgen:tool
func (c *Counter) M20(ctx context.Context, in In) (int, error) { c.N += 20; return c.N, nil }

// M21 counts.
//
//toolgen:tool
func (c *Counter) M21(ctx context.Context, in In) (int, error) { c.N += 21; return c.N, nil }

// M22 counts.
//
//toolgen:tool
func (c *Counter) M22(ctx context.Context, in In) (int, error) { c.N += 22; return c.N, nil }

// M23 counts.
//
//toolgen:tool
func (c *Counter) M23(ctx context.Context, in In) (int, error) { c.N += 23; return c.N, nil }

// M24 counts.
//
//toolgen:tool
func (c *Counter) M24(ctx context.Context, in In) (int, error) { c.N += 24; return c.N, nil }

// M25 counts.
//
//toolgen:tool
func (c *Counter) M25(ctx context.Context, in In) (int, error) { c.N += 25; return c.N, nil }

// M26 counts.
//
//toolgen:tool
func (c *Counter) M26(ctx context.Context, in In) (int, error) { c.N += 26; return c.N, nil }

// M27 counts.
//
//toolgen:tool
func (c *Counter) M27(ctx context.Context, in In) (int, error) { c.N += 27; return c.N, nil }

// M28 counts.
//
//toolgen:tool
func (c *Counter) M28(ctx context.Context, in In) (int, error) { c.N += 28; return c.N, nil }

// M29 counts.
//
//toolgen:tool
func (c *Counter) M29(ctx context.Context, in In) (int, error) { c.N += 29; return c.N, nil }

// M30 counts.
//
//toolgen:tool
func (c *Counter) M30(ctx context.Context, in In) (int, error) { c.N += 30; return c.N, nil }

// M31 counts.
//
//toolgen:tool
func (c *Counter) M31(ctx context.Context, in In) (int, error) { c.N += 31; return c.N, nil }

// M32 counts.
//
//toolgen:tool
func (c *Counter) M32(ctx context.Context, in In) (int, error) { c.N += 32; return c.N, nil }

// M33 counts.
//
//toolgen:tool
func (c *Counter) M33(ctx context.Context, in In) (int, error) { c.N += 33; return c.N, nil }

// M34 counts.
//
//toolgen:tool
func (c *Counter) M34(ctx context.Context, in In) (int, error) { c.N += 34; return c.N, nil }

// M35 counts.
//
//toolgen:tool
func (c *Counter) M35(ctx context.Context, in In) (int, error) { c.N += 35; return c.N, nil }

// M36 counts.
//
//toolgen:tool
func (c *Counter) M36(ctx context.Context, in In) (int, error) { c.N += 36; return c.N, nil }

// M37 counts.
//
//toolgen:tool
func (c *Counter) M37(ctx context.Context, in In) (int, error) { c.N += 37; return c.N, nil }

// M38 counts.
//
//toolgen:tool
func (c *Counter) M38(ctx context.Context, in In) (int, error) { c.N += 38; return c.N, nil }

// M39 counts.
//
//toolgen:tool
func (c *Counter) M39(ctx context.Context, in In) (int, error) { c.N += 39; return c.N, nil }

// M40 counts.
//
//toolgen:tool
func (c *Counter) M40(ctx context.Context, in In) (int, error) { c.N += 40; return c.N, nil }

// M41 counts.
//
//toolgen:tool
func (c *Counter) M41(ctx context.Context, in In) (int, error) { c.N += 41; return c.N, nil }

// M42 counts.
//
//toolgen:tool
func (c *Counter) M42(ctx context.Context, in In) (int, error) { c.N += 42; return c.N, nil }

// M43 counts.
//
//toolgen:tool
func (c *Counter) M43(ctx context.Context, in In) (int, error) { c.N += 43; return c.N, nil }

// M44 counts.
//
//toolgen:tool
func (c *Counter) M44(ctx context.Context, in In) (int, error) { c.N += 44; return c.N, nil }

// M45 counts.
//
//toolgen:tool
func (c *Counter) M45(ctx context.Context, in In) (int, error) { c.N += 45; return c.N, nil }

// M46 counts.
//
//toolgen:tool
func (c *Counter) M46(ctx context.Context, in In) (int, error) { c.N += 46; return c.N, nil }

// M47 counts.
//
//toolgen:tool
func (c *Counter) M47(ctx context.Context, in In) (int, error) { c.N += 47; return c.N, nil }

// M48 counts.
//
//toolgen:tool
func (c *Counter) M48(ctx context.Context, in In) (int, error) { c.N += 48; return c.N, nil }

// M49 counts.
//
//toolgen:tool
func (c *Counter) M49(ctx context.Context, in In) (int, error) { c.N += 49; return c.N, nil }

// M50 counts.
//
//toolgen:tool
func (c *Counter) M50(ctx context.Context, in In) (int, error) { c.N += 50; return c.N, nil }

// M51 counts.
//
//toolgen:tool
func (c *Counter) M51(ctx context.Context, in In) (int, error) { c.N += 51; return c.N, nil }

// M52 counts.
//
//toolgen:tool
func (c *Counter) M52(ctx context.Context, in In) (int, error) { c.N += 52; return c.N, nil }

// M53 counts.
//
//toolgen:tool
func (c *Counter) M53(ctx context.Context, in In) (int, error) { c.N += 53; return c.N, nil }

// M54 counts.
//
//toolgen:tool
func (c *Counter) M54(ctx context.Context, in In) (int, error) { c.N += 54; return c.N, nil }

// M55 counts.
//
//toolgen:tool
func (c *Counter) M55(ctx context.Context, in In) (int, error) { c.N += 55; return c.N, nil }

// M56 counts.
//
//toolgen:tool
func (c *Counter) M56(ctx context.Context, in In) (int, error) { c.N += 56; return c.N, nil }

// M57 counts.
//
//toolgen:tool
func (c *Counter) M57(ctx context.Context, in In) (int, error) { c.N += 57; return c.N, nil }

// M58 counts.
//
//toolgen:tool
func (c *Counter) M58(ctx context.Context, in In) (int, error) { c.N += 58; return c.N, nil }

// M59 counts.
//
//toolgen:tool
func (c *Counter) M59(ctx context.Context, in In) (int, error) { c.N += 59; return c.N, nil }

// M60 counts.
//
//toolgen:tool
func (c *Counter) M60(ctx context.Context, in In) (int, error) { c.N += 60; return c.N, nil }

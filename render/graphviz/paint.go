package graphviz

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image/color"
	"image/png"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/fogleman/gg"
	"github.com/golang/freetype/truetype"
	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/goregular"
)

// PNG is painted here, not by go-graphviz's own PNG plugin: that plugin
// (v0.2.10) draws node shapes in the wrong colour or not at all and fills
// edge curves into black blobs. Instead, Graphviz lays the graph out and
// writes its `json` output, whose xdot drawing operations (xdot 1.7: shapes,
// curves, text, colours, styles) are Graphviz's own picture; this file draws
// them with gg, the 2D library go-graphviz already brings in.

// pngScale is pixels per Graphviz point (72 per inch): 1.5 is 108 dpi. A
// picture that would exceed pngPixels at this scale is drawn smaller.
const pngScale = 1.5

// pngPixels is the area beyond which the scale shrinks, so that a graph of
// hundreds of states still paints in a second or two.
const pngPixels = 8 << 20

// pngMargin is the blank border around the picture, in pixels.
const pngMargin = 8

// maxPNGPixels bounds the painted area, so that a wide graph cannot ask for
// gigabytes of memory.
const maxPNGPixels = 64 << 20

// xdotGraph is the part of Graphviz's json output the painter reads.
type xdotGraph struct {
	BB      string       `json:"bb"`
	Draw    []xdotOp     `json:"_draw_"`
	LDraw   []xdotOp     `json:"_ldraw_"`
	Objects []xdotObject `json:"objects"`
	Edges   []xdotObject `json:"edges"`
}

// xdotObject is a node, a subgraph or an edge with its drawing operations.
type xdotObject struct {
	Nodes  []int    `json:"nodes"` // set on subgraphs only
	Draw   []xdotOp `json:"_draw_"`
	LDraw  []xdotOp `json:"_ldraw_"`
	HDraw  []xdotOp `json:"_hdraw_"`
	TDraw  []xdotOp `json:"_tdraw_"`
	HLDraw []xdotOp `json:"_hldraw_"`
	TLDraw []xdotOp `json:"_tldraw_"`
}

// xdotOp is one xdot drawing operation.
type xdotOp struct {
	Op     string       `json:"op"`
	Color  string       `json:"color"`
	Rect   []float64    `json:"rect"`
	Points [][2]float64 `json:"points"`
	Pt     []float64    `json:"pt"`
	Align  string       `json:"align"`
	Width  float64      `json:"width"`
	Text   string       `json:"text"`
	Size   float64      `json:"size"`
	Style  string       `json:"style"`
}

// painter holds the drawing state of one picture.
type painter struct {
	dc        *gg.Context
	h         float64 // height of the bounding box, in points
	s         float64 // pixels per point
	pen, fill color.Color
	fillSet   bool // a `C` operation came earlier in the current list
	width     float64
	dashed    bool
	fontSize  float64
	ttf       *truetype.Font
	faces     map[float64]font.Face
}

// paintPNG draws Graphviz's json output as a PNG.
func paintPNG(jsonOut []byte) ([]byte, error) {
	var g xdotGraph
	if err := json.Unmarshal(jsonOut, &g); err != nil {
		return nil, fmt.Errorf("read graphviz json: %w", err)
	}
	var x0, y0, x1, y1 float64
	if _, err := fmt.Sscanf(g.BB, "%g,%g,%g,%g", &x0, &y0, &x1, &y1); err != nil {
		return nil, fmt.Errorf("read graphviz bounding box %q: %w", g.BB, err)
	}
	scale := pngScale
	if area := (x1 - x0) * (y1 - y0) * scale * scale; area > pngPixels {
		scale *= math.Sqrt(pngPixels / area)
	}
	w := int(math.Ceil((x1-x0)*scale)) + 2*pngMargin
	h := int(math.Ceil((y1-y0)*scale)) + 2*pngMargin
	if w <= 0 || h <= 0 || w*h > maxPNGPixels {
		return nil, fmt.Errorf("%w: a %dx%d picture", ErrTooLarge, w, h)
	}
	ttf, err := truetype.Parse(goregular.TTF)
	if err != nil {
		return nil, err
	}
	p := &painter{dc: gg.NewContext(w, h), h: y1, s: scale, ttf: ttf, faces: map[float64]font.Face{}}
	p.dc.SetColor(color.White)
	p.dc.Clear()
	p.draw(g.Draw, g.LDraw)
	for _, o := range g.Objects { // clusters under everything
		if o.Nodes != nil {
			p.draw(o.Draw, o.LDraw)
		}
	}
	for _, o := range g.Objects {
		if o.Nodes == nil {
			p.draw(o.Draw, o.LDraw)
		}
	}
	for _, e := range g.Edges {
		p.draw(e.Draw, e.HDraw, e.TDraw, e.LDraw, e.HLDraw, e.TLDraw)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, p.dc.Image()); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// draw runs lists of operations, each list starting from black pens, a
// width of 1 and solid lines, as xdot specifies.
func (p *painter) draw(lists ...[]xdotOp) {
	for _, ops := range lists {
		p.pen, p.fill, p.fillSet, p.width, p.dashed, p.fontSize = color.Black, color.Black, false, 1, false, 14
		for _, op := range ops {
			p.op(op)
		}
	}
}

// pt maps a Graphviz point (y up) to pixels (y down).
func (p *painter) pt(x, y float64) (float64, float64) {
	return x*p.s + pngMargin, (p.h-y)*p.s + pngMargin
}

func (p *painter) op(op xdotOp) {
	switch op.Op {
	case "c":
		p.pen = parseColor(op.Color)
	case "C":
		p.fill, p.fillSet = parseColor(op.Color), true
	case "S":
		p.style(op.Style)
	case "F":
		if op.Size > 0 {
			p.fontSize = op.Size
		}
	case "E", "e":
		if len(op.Rect) == 4 {
			x, y := p.pt(op.Rect[0], op.Rect[1])
			p.dc.DrawEllipse(x, y, op.Rect[2]*p.s, op.Rect[3]*p.s)
			p.finish(op.Op == "E")
		}
	case "P", "p", "L":
		if len(op.Points) > 1 {
			for i, q := range op.Points {
				x, y := p.pt(q[0], q[1])
				if i == 0 {
					p.dc.MoveTo(x, y)
				} else {
					p.dc.LineTo(x, y)
				}
			}
			if op.Op != "L" {
				p.dc.ClosePath()
			}
			p.finish(op.Op == "P")
		}
	case "B", "b":
		// Graphviz 12.1.2 in WebAssembly writes `b` (filled) for every
		// curve, edges and unfilled rounded boxes included (its SVG of
		// the same layout says fill="none"): a curve is filled only when
		// its list set a fill colour.
		p.bezier(op.Points)
		p.finish(p.fillSet)
	case "T":
		p.text(op)
	}
}

// bezier adds a B-spline of Graphviz's form: a start point, then triples of
// control, control, end.
func (p *painter) bezier(pts [][2]float64) {
	if len(pts) < 4 {
		return
	}
	x, y := p.pt(pts[0][0], pts[0][1])
	p.dc.MoveTo(x, y)
	for i := 1; i+2 < len(pts); i += 3 {
		ax, ay := p.pt(pts[i][0], pts[i][1])
		bx, by := p.pt(pts[i+1][0], pts[i+1][1])
		cx, cy := p.pt(pts[i+2][0], pts[i+2][1])
		p.dc.CubicTo(ax, ay, bx, by, cx, cy)
	}
}

// finish fills (then outlines with the pen) or strokes the current path.
func (p *painter) finish(filled bool) {
	p.dc.SetLineWidth(p.width * p.s)
	if p.dashed {
		p.dc.SetDash(5*p.s, 3*p.s)
	} else {
		p.dc.SetDash()
	}
	if filled {
		p.dc.SetColor(p.fill)
		p.dc.FillPreserve()
	}
	p.dc.SetColor(p.pen)
	p.dc.Stroke()
}

var lineWidth = regexp.MustCompile(`^setlinewidth\(([0-9.]+)\)$`)

// style applies an `S` operation.
func (p *painter) style(s string) {
	switch {
	case s == "dashed" || s == "dotted":
		p.dashed = true
	case s == "solid":
		p.dashed = false
	case s == "bold":
		p.width = 2
	case lineWidth.MatchString(s):
		if f, err := strconv.ParseFloat(lineWidth.FindStringSubmatch(s)[1], 64); err == nil && f > 0 && f < 100 {
			p.width = f
		}
	}
}

// text draws a `T` operation, shrinking the font when Go's metrics make the
// text wider than the width Graphviz reserved for it, so that labels never
// overflow their boxes.
func (p *painter) text(op xdotOp) {
	if len(op.Pt) != 2 || op.Text == "" {
		return
	}
	size := p.fontSize * p.s
	p.dc.SetFontFace(p.face(size))
	if w, _ := p.dc.MeasureString(op.Text); op.Width > 0 && w > op.Width*p.s {
		size *= op.Width * p.s / w
		p.dc.SetFontFace(p.face(size))
	}
	x, y := p.pt(op.Pt[0], op.Pt[1])
	ax := map[string]float64{"l": 0, "c": 0.5, "r": 1}[op.Align]
	if op.Align == "" {
		ax = 0.5
	}
	p.dc.SetColor(p.pen)
	p.dc.DrawStringAnchored(op.Text, x, y, ax, 0)
}

// face returns the Go Regular face at size pixels, cached.
func (p *painter) face(size float64) font.Face {
	size = math.Round(size*4) / 4
	if f, ok := p.faces[size]; ok {
		return f
	}
	f := truetype.NewFace(p.ttf, &truetype.Options{Size: size, DPI: 72})
	p.faces[size] = f
	return f
}

// parseColor reads `#rrggbb` or `#rrggbbaa`; anything else is black, except
// `white` and `transparent`, the names Graphviz itself writes.
func parseColor(s string) color.Color {
	switch strings.ToLower(s) {
	case "white":
		return color.White
	case "transparent", "none":
		return color.Transparent
	}
	if len(s) != 7 && len(s) != 9 || s[0] != '#' {
		return color.Black
	}
	v, err := strconv.ParseUint(s[1:], 16, 32)
	if err != nil {
		return color.Black
	}
	if len(s) == 7 {
		return color.NRGBA{uint8(v >> 16), uint8(v >> 8), uint8(v), 255}
	}
	return color.NRGBA{uint8(v >> 24), uint8(v >> 16), uint8(v >> 8), uint8(v)}
}

import { describe, expect, it } from "vitest";
import { $, TableEnvironment, Tumble, lit } from "../../src/index.js";
import { timelineSvg, traceTimeline } from "../../src/notebook/index.js";
import { ev, events } from "../windows/support.js";

describe("traceTimeline", () => {
  const env = TableEnvironment.create();
  const input = () => env.fromValues(events,
    ev("a", 1, 0.5), // wm -0.5
    ev("b", 2, 1.2), // wm 0.2
    ev("a", 3, 0.9), // out of order, not late
    ev("a", 4, 2.5), // wm 1.5
    ev("b", 5, 3.0), // wm 2.0 >= 2 - 1 ms: [0, 2) fires
    ev("a", 6, 1.5), // late: [0, 2) has fired
    ev("a", 7, 5.0), // wm 4.0: [2, 4) fires
  );
  const windowed = () => input().window(Tumble.over(lit(2).seconds()).on($("ts")).as("w"))
    .groupBy($("w")).select($("v").sum().as("total"), $("w").end().as("e"));

  it("records rows, watermarks, late rows, panes and the outputs each record caused", async () => {
    const trace = await traceTimeline(windowed());
    expect(trace.inputs.map((i) => [i.arrival, i.time, i.late])).toEqual([
      [0, 500, false], [1, 1200, false], [2, 900, false], [3, 2500, false], [4, 3000, false], [5, 1500, true], [6, 5000, false],
    ]);
    expect(trace.inputs[0]!.label).toBe("a, 1, 1970-01-01T00:00:00.500Z");
    expect(trace.watermarks).toEqual([
      { arrival: 0, time: -500 }, { arrival: 1, time: 200 }, { arrival: 3, time: 1500 }, { arrival: 4, time: 2000 }, { arrival: 6, time: 4000 },
    ]);
    // [0, 2) fires after the fifth row, [2, 4) after the seventh, [4, 6) at end of input
    expect(trace.windows).toEqual([
      { start: 0, end: 2000, firedAt: 4 }, { start: 2000, end: 4000, firedAt: 6 }, { start: 4000, end: 6000, firedAt: 7 },
    ]);
    expect(trace.outputs).toEqual([
      { arrival: 4, kind: 0, label: "6, 1970-01-01T00:00:02" },
      { arrival: 6, kind: 0, label: "9, 1970-01-01T00:00:04" },
      { arrival: 7, kind: 0, label: "7, 1970-01-01T00:00:06" },
    ]);
  });

  it("puts the outputs of a non-window plan at the record that caused them, the last one included", async () => {
    const counts = input().groupBy($("k")).select($("k"), $("v").count().as("n"));
    const trace = await traceTimeline(counts);
    expect(trace.windows).toEqual([]);
    expect(trace.outputs.map((o) => [o.arrival, o.kind, o.label])).toEqual([
      [0, 0, "a, 1"], [1, 0, "b, 1"], [2, 1, "a, 1"], [2, 2, "a, 2"], [3, 1, "a, 2"], [3, 2, "a, 3"],
      [4, 1, "b, 1"], [4, 2, "b, 2"], [5, 1, "a, 3"], [5, 2, "a, 4"], [6, 1, "a, 4"], [6, 2, "a, 5"],
    ]);
    // without a window, late means at or behind the watermark on arrival
    expect(trace.inputs.filter((i) => i.late).map((i) => i.arrival)).toEqual([5]);
  });

  it("refuses programs it cannot trace, naming why", async () => {
    const plain = env.fromValues("a", "b").as("name");
    await expect(traceTimeline(plain)).rejects.toThrow("traceTimeline: the input table declares no watermark");
    await expect(traceTimeline(input().unionAll(input()))).rejects.toThrow("must read exactly one fromValues table (found Values, Values)");
  });
});

describe("timelineSvg", () => {
  const env = TableEnvironment.create();
  it("draws one mark per row, pane, output and the watermark line, with tooltips", async () => {
    const t = env.fromValues(events, ev("a", 1, 0.5), ev("a", 2, 3.0), ev("b", 3, 0.2), ev("a", 4, 4.1))
      .window(Tumble.over(lit(2).seconds()).on($("ts")).as("w")).groupBy($("w")).select($("v").sum().as("total"));
    const svg = timelineSvg(await traceTimeline(t), { title: "sum per 2 s <tumble>" });
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg.match(/<g class="row"/g)).toHaveLength(3);
    expect(svg.match(/<g class="row late"/g)).toHaveLength(1);
    expect(svg).toContain('data-arrival="2" data-time="200"><title>row 3: b, 3, 1970-01-01T00:00:00.200Z at 00:00:00.200 (late)</title>');
    expect(svg.match(/<g class="pane"/g)).toHaveLength(3);
    expect(svg).toContain('<g class="pane" data-start="0" data-end="2000" data-fired-at="1">');
    expect(svg.match(/<g class="output"/g)).toHaveLength(3);
    expect(svg).toContain('<g class="output" data-arrival="4" data-kind="+I"><title>+I[4]</title>');
    expect(svg.match(/class="watermark"/g)).toHaveLength(1);
    // names and values are escaped
    expect(svg).toContain("sum per 2 s &lt;tumble&gt;");
    expect(svg).not.toContain("<tumble>");
  });
});

describe("the timeline as a picture", () => {
  it("rasterises to a PNG whose pixels show the rows, the late row and the panes", async () => {
    const { Resvg } = await import("@resvg/resvg-js");
    const env = TableEnvironment.create();
    const t = env.fromValues(events, ev("a", 1, 0.5), ev("a", 2, 3.0), ev("b", 3, 0.2), ev("a", 4, 4.1))
      .window(Tumble.over(lit(2).seconds()).on($("ts")).as("w")).groupBy($("w")).select($("v").sum().as("total"));
    const svg = timelineSvg(await traceTimeline(t));
    const image = new Resvg(svg, { font: { loadSystemFonts: true } }).render();
    expect([image.width, image.height]).toEqual([720, 380]);
    const png = image.asPng();
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const pixel = (x: number, y: number) => {
      const i = (Math.round(y) * image.width + Math.round(x)) * 4;
      return [...image.pixels.subarray(i, i + 3)];
    };
    // every on-time row is a dark dot at its (cx, cy); the late row's cross is red at its centre
    for (const m of svg.matchAll(/<circle cx="([\d.]+)" cy="([\d.]+)" r="4" fill="#24292f"\/>/g)) {
      expect(pixel(Number(m[1]), Number(m[2]))).toEqual([0x24, 0x29, 0x2f]);
    }
    const late = /<g class="row late"[^>]*><title>[^<]*<\/title><path d="M([\d.]+) ([\d.]+) /.exec(svg)!;
    const [r, g, b] = pixel(Number(late[1]) + 4, Number(late[2]) + 4);
    expect(r).toBeGreaterThan(150);
    expect(g).toBeLessThan(100);
    expect(b).toBeLessThan(100);
    // a pane's inside is its light fill, not white
    const pane = /<rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)" fill="#ddf4ff"/.exec(svg)!;
    expect(pixel(Number(pane[1]) + 3, Number(pane[2]) + Number(pane[4]) - 3)).not.toEqual([255, 255, 255]);
  });
});

// The profile's usage chart: requests per day split v1/v2 (stacked bars) and credits used per
// day (area), as inline SVG. Colours come from CSS classes, so the strict CSP (no inline
// styles) holds. Two widths are rendered and CSS shows one, so axis text stays legible on a
// phone as on a desktop.
import type { DailyUsage } from '../usage-queries.js';
import { formatNumber, formatShortDate, plural } from '../../platform/web/index.js';
import { html, type SafeHtml } from '../../platform/web/index.js';

interface Frame {
  width: number;
  height: number;
  top: number;
  right: number;
  bottom: number;
  left: number;
}

const WIDE = { requests: { width: 960, height: 240 }, credits: { width: 960, height: 130 }, labelEvery: 5 };
const NARROW = { requests: { width: 400, height: 220 }, credits: { width: 400, height: 130 }, labelEvery: 7 };
const MARGINS = { top: 12, right: 8, bottom: 26, left: 44 };

/** A round axis maximum and its step (1, 2, 2.5 or 5 times a power of ten), in at most `ticks` steps. */
export function niceScale(max: number, ticks = 4): { max: number; step: number } {
  // Small counts keep a few steps, so one request is a short bar rather than a full-height one.
  if (max <= ticks) return { max: ticks, step: 1 };
  const rough = max / ticks;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = Math.max(
    1,
    [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= rough)!,
  );
  // Whole numbers only: counts are integers, so a 2.5 step only above 10.
  const whole = Number.isInteger(step) ? step : Math.ceil(step);
  return { max: Math.ceil(max / whole) * whole, step: whole };
}

const round = (n: number) => Math.round(n * 10) / 10;

/** A bar with rounded top corners (the top of a stack). */
function topRoundedBar(x: number, y: number, w: number, h: number, r: number): string {
  const radius = Math.min(r, w / 2, h);
  return `M${round(x)},${round(y + h)}V${round(y + radius)}Q${round(x)},${round(y)} ${round(x + radius)},${round(y)}H${round(x + w - radius)}Q${round(x + w)},${round(y)} ${round(x + w)},${round(y + radius)}V${round(y + h)}Z`;
}

function gridAndAxis(frame: Frame, scale: { max: number; step: number }): SafeHtml[] {
  const plotHeight = frame.height - frame.top - frame.bottom;
  const lines: SafeHtml[] = [];
  for (let value = 0; value <= scale.max; value += scale.step) {
    const y = round(frame.top + plotHeight - (value / scale.max) * plotHeight);
    lines.push(
      html`<line
          class="chart-grid${value === 0 ? ' chart-baseline' : ''}"
          x1="${frame.left}"
          x2="${frame.width - frame.right}"
          y1="${y}"
          y2="${y}"
        />
        <text class="chart-tick" x="${frame.left - 8}" y="${y + 4}" text-anchor="end">${formatNumber(value)}</text>`,
    );
  }
  return lines;
}

function dayLabels(frame: Frame, days: DailyUsage[], every: number): SafeHtml[] {
  const band = (frame.width - frame.left - frame.right) / days.length;
  return days.flatMap((day, i) =>
    (days.length - 1 - i) % every === 0
      ? [
          html`<text class="chart-tick" x="${round(frame.left + band * (i + 0.5))}" y="${frame.height - 6}" text-anchor="middle"
            >${formatShortDate(day.day)}</text
          >`,
        ]
      : [],
  );
}

function requestsSvg(days: DailyUsage[], size: { width: number; height: number }, labelEvery: number, id: string): SafeHtml {
  const frame: Frame = { ...size, ...MARGINS };
  const scale = niceScale(Math.max(0, ...days.map((d) => d.v1_requests + d.v2_requests)));
  const plotHeight = frame.height - frame.top - frame.bottom;
  const band = (frame.width - frame.left - frame.right) / days.length;
  const barWidth = Math.max(3, band * 0.62);
  const y = (value: number) => frame.top + plotHeight - (value / scale.max) * plotHeight;
  const v1Total = days.reduce((sum, d) => sum + d.v1_requests, 0);
  const v2Total = days.reduce((sum, d) => sum + d.v2_requests, 0);

  const bars = days.map((day, i) => {
    const x = frame.left + band * i + (band - barWidth) / 2;
    const total = day.v1_requests + day.v2_requests;
    const v1Top = y(day.v1_requests);
    const v1 =
      day.v1_requests === 0
        ? ''
        : day.v2_requests === 0
          ? html`<path class="bar-v1" d="${topRoundedBar(x, v1Top, barWidth, y(0) - v1Top, 3)}" />`
          : html`<rect
              class="bar-v1"
              x="${round(x)}"
              y="${round(v1Top)}"
              width="${round(barWidth)}"
              height="${round(y(0) - v1Top)}"
            />`;
    const v2 =
      day.v2_requests === 0 ? '' : html`<path class="bar-v2" d="${topRoundedBar(x, y(total), barWidth, v1Top - y(total), 3)}" />`;
    return html`<g class="chart-day"
      ><title>
        ${formatShortDate(day.day)}: ${plural(day.v1_requests, 'v1 request')}, ${plural(day.v2_requests, 'v2 request')}
      </title>
      <rect
        class="chart-hit"
        x="${round(frame.left + band * i)}"
        y="${frame.top}"
        width="${round(band)}"
        height="${plotHeight}"
      />${v1}${v2}</g
    >`;
  });

  const empty =
    v1Total + v2Total === 0
      ? html`<text
          class="chart-empty"
          x="${frame.left + (frame.width - frame.left - frame.right) / 2}"
          y="${frame.top + plotHeight / 2}"
          text-anchor="middle"
          >No requests in the last ${days.length} days</text
        >`
      : '';
  return html`<svg class="chart" viewBox="0 0 ${frame.width} ${frame.height}" role="img" aria-labelledby="${id}-title ${id}-desc">
    <title id="${id}-title">API requests per day, last ${days.length} days</title>
    <desc id="${id}-desc">
      ${plural(v1Total, 'v1 request')} and ${plural(v2Total, 'v2 request')} from ${formatShortDate(days[0]?.day ?? '')} to
      ${formatShortDate(days.at(-1)?.day ?? '')}.
    </desc>
    ${gridAndAxis(frame, scale)}${bars}${dayLabels(frame, days, labelEvery)}${empty}
  </svg>`;
}

function creditsSvg(days: DailyUsage[], size: { width: number; height: number }, labelEvery: number, id: string): SafeHtml {
  const frame: Frame = { ...size, ...MARGINS };
  const scale = niceScale(Math.max(0, ...days.map((d) => d.credits)), 2);
  const plotHeight = frame.height - frame.top - frame.bottom;
  const band = (frame.width - frame.left - frame.right) / days.length;
  const x = (i: number) => round(frame.left + band * (i + 0.5));
  const y = (value: number) => round(frame.top + plotHeight - (value / scale.max) * plotHeight);
  const total = days.reduce((sum, d) => sum + d.credits, 0);
  const line = days.map((d, i) => `${i === 0 ? 'M' : 'L'}${x(i)},${y(d.credits)}`).join('');
  const area = `${line}L${x(days.length - 1)},${y(0)}L${x(0)},${y(0)}Z`;
  const points = days.map((d, i) =>
    d.credits === 0
      ? ''
      : html`<circle class="credits-point" cx="${x(i)}" cy="${y(d.credits)}" r="3"
          ><title>${formatShortDate(d.day)}: ${plural(d.credits, 'credit')}</title></circle
        >`,
  );
  return html`<svg class="chart" viewBox="0 0 ${frame.width} ${frame.height}" role="img" aria-labelledby="${id}-title ${id}-desc">
    <title id="${id}-title">Credits used per day, last ${days.length} days</title>
    <desc id="${id}-desc">${plural(total, 'credit')} used in the last ${days.length} days.</desc>
    ${gridAndAxis(frame, scale)}
    <path class="credits-area" d="${area}" />
    <path class="credits-line" d="${line}" />
    ${points}${dayLabels(frame, days, labelEvery)}
  </svg>`;
}

/** Both charts at both widths, the legend and a data table for screen readers and no-CSS readers. */
export function usageCharts(days: DailyUsage[]): { requests: SafeHtml; credits: SafeHtml; table: SafeHtml } {
  const both = (render: typeof requestsSvg, kind: 'requests' | 'credits') =>
    html` <div class="chart-wide">${render(days, WIDE[kind], WIDE.labelEvery, `${kind}-wide`)}</div>
      <div class="chart-narrow">${render(days, NARROW[kind], NARROW.labelEvery, `${kind}-narrow`)}</div>`;
  const rows = [...days].reverse().map(
    (d) =>
      html`<tr>
        <th scope="row">${formatShortDate(d.day)}</th>
        <td>${formatNumber(d.v1_requests)}</td>
        <td>${formatNumber(d.v2_requests)}</td>
        <td>${formatNumber(d.credits)}</td>
      </tr>`,
  );
  return {
    requests: both(requestsSvg, 'requests'),
    credits: both(creditsSvg, 'credits'),
    table: html`<table class="data-table compact">
      <caption class="sr-only">
        Usage per day, newest first
      </caption>
      <thead>
        <tr>
          <th scope="col">Day (UTC)</th>
          <th scope="col">v1 requests</th>
          <th scope="col">v2 requests</th>
          <th scope="col">Credits</th>
        </tr>
      </thead>
      <tbody>
        ${rows}
      </tbody>
    </table>`,
  };
}

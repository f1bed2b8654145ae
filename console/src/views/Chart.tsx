// A bar/line chart of daily figures (uPlot), with the same figures as a table for screen readers.
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { dayRange, dayX } from '../dayRange';

const COLORS = ['#1f5f99', '#2e7d32', '#c62828', '#8a3b12', '#6a1b9a'];

export function DailyChart({ title, days, series }: { title: string; days: string[]; series: { label: string; values: number[] }[] }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!box.current || days.length === 0) return;
    const xs = days.map(dayX);
    const range = dayRange(xs);
    const plot = new uPlot(
      {
        width: Math.min(640, box.current.clientWidth || 640),
        height: 220,
        title,
        // The days shown and one either side, whatever uPlot would make of them (a single day spanned years).
        scales: { x: { time: true, range: () => range } },
        legend: { show: false },
        series: [{}, ...series.map((s, i) => ({ label: s.label, stroke: COLORS[i % COLORS.length], width: 2, points: { show: true, size: 8 } }))],
        axes: [{}, { size: 50 }],
      },
      [xs, ...series.map((s) => s.values)] as uPlot.AlignedData,
      box.current,
    );
    return () => plot.destroy();
  }, [title, days.join(), JSON.stringify(series)]);
  return (
    <figure class="chart">
      <div ref={box} aria-hidden="true" />
      <figcaption>
        <table>
          <caption>{title}</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              {series.map((s) => (
                <th scope="col">{s.label}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {days.map((d, i) => (
              <tr>
                <th scope="row">{d}</th>
                {series.map((s) => (
                  <td>{s.values[i]}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </figcaption>
    </figure>
  );
}

// Time-series charts drawn by uPlot (a maintained canvas charting library from npm, bundled into the page by Vite:
// nothing is fetched from another site). Colours come from the page's CSS variables, so a chart follows the light or
// dark theme; restyle() rebuilds it after a theme change.

import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface SeriesSpec
{
    label: string;
    /** A CSS variable of the theme (`--series-1`) or a colour. */
    color: string;
    /** Draw each point as a dot too (sparse series such as trades). */
    points?: boolean;
}

export interface ChartOptions
{
    /** Formats a y value for the axis and the legend. */
    format?: (value: number) => string;
    /** The y axis starts at zero. */
    zeroBased?: boolean;
    /** Shown while no series has a value. */
    empty?: string;
}

const LARGE_SCREEN_PX = 2000;

function themeColor(name: string): string
{
    if (!name.startsWith('--'))
    {
        return name;
    }
    return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || '#888';
}

/** A chart of series over time (milliseconds since the epoch) in a container element. */
export class TimeChart
{
    private plot: uPlot | null = null;
    private data: uPlot.AlignedData;
    private readonly overlay: HTMLElement;
    private readonly holder: HTMLElement;
    private readonly resizeObserver: ResizeObserver;

    constructor(private readonly container: HTMLElement, private readonly series: SeriesSpec[],
        private readonly options: ChartOptions = {})
    {
        this.data = [[], ...series.map(() => [])];
        this.holder = document.createElement('div');
        this.overlay = document.createElement('div');
        this.overlay.className = 'chart-empty';
        this.overlay.textContent = options.empty ?? 'no data yet';
        container.replaceChildren(this.holder, this.overlay);
        container.dataset.points = '0';
        this.resizeObserver = new ResizeObserver(() => this.resize());
        this.resizeObserver.observe(container);
    }

    /**
     * Replaces the chart's data.
     * @param timesMs the x values, ascending
     * @param values one array per series, of the length of timesMs; null (or a non-finite number) for no value
     */
    setData(timesMs: number[], values: (number | null | undefined)[][]): void
    {
        let points = 0;
        const columns = values.map((column) => column.map((value) =>
        {
            if (null === value || undefined === value || !Number.isFinite(value))
            {
                return null;
            }
            points++;
            return value;
        }));
        this.data = [timesMs, ...columns];
        this.container.dataset.points = String(points);
        this.overlay.hidden = points > 0;
        if (null === this.plot)
        {
            this.create();
        }
        else
        {
            this.plot.setData(this.data);
        }
    }

    /** Rebuilds the chart with the theme's current colours. */
    restyle(): void
    {
        this.plot?.destroy();
        this.plot = null;
        this.create();
    }

    private size(): { width: number; height: number }
    {
        return {
            width: Math.max(0, Math.floor(this.container.clientWidth)),
            height: window.innerWidth >= LARGE_SCREEN_PX ? 320 : 200,
        };
    }

    private resize(): void
    {
        const size = this.size();
        if (size.width <= 0)
        {
            return;
        }
        if (null === this.plot)
        {
            this.create();
        }
        else if (size.width !== this.plot.width || size.height !== this.plot.height)
        {
            this.plot.setSize(size);
        }
    }

    private create(): void
    {
        const size = this.size();
        if (size.width <= 0)
        {
            // Hidden (another view is shown): created when the container gets a size.
            return;
        }
        const foreground = themeColor('--fg');
        const grid = themeColor('--grid');
        const format = this.options.format ?? ((value: number) => String(Math.round(value * 100) / 100));
        const zeroBased = true === this.options.zeroBased;
        const axis = { stroke: foreground, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
        this.plot = new uPlot({
            ...size,
            ms: 1,
            cursor: { drag: { x: false, y: false } },
            scales: {
                x: { time: true },
                y: {
                    range: (_plot, min, max) =>
                    {
                        if (null === min || null === max)
                        {
                            return [0, 1];
                        }
                        const low = zeroBased ? Math.min(0, min) : min;
                        const spread = max - low || Math.abs(max) * 0.01 || 1;
                        return [zeroBased && low >= 0 ? low : low - spread * 0.08, max + spread * 0.08];
                    },
                },
            },
            series: [
                {},
                ...this.series.map((spec) => ({
                    label: spec.label,
                    stroke: themeColor(spec.color),
                    width: 1.6,
                    spanGaps: false,
                    points: { show: true === spec.points, size: 5, fill: themeColor(spec.color) },
                    value: (_plot: uPlot, value: number | null) => null === value ? '-' : format(value),
                })),
            ],
            axes: [
                { ...axis },
                { ...axis, size: 72, values: (_plot, ticks) => ticks.map((tick) => format(tick)) },
            ],
        }, this.data, this.holder);
    }
}

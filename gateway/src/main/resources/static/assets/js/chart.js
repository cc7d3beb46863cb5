// Time-series line charts drawn on a <canvas>: no chart library, no CDN. Colours come from the page's CSS variables,
// so a chart follows the light or dark theme.

const PAD = { left: 64, right: 12, top: 22, bottom: 22 };

/**
 * Draws series of [timeMs, value] points.
 * @param canvas the canvas; its CSS size decides the drawing size
 * @param series [{label, color (a CSS variable name or colour), points: [[t, v], ...]}]
 * @param options {format(value) for the y axis, windowMs (the time span shown, ending now or at the last point)}
 */
export function drawLineChart(canvas, series, options = {})
{
    const ratio = window.devicePixelRatio || 1;
    const width = canvas.clientWidth || 300;
    const height = canvas.clientHeight || 160;
    if (canvas.width !== Math.round(width * ratio) || canvas.height !== Math.round(height * ratio))
    {
        canvas.width = Math.round(width * ratio);
        canvas.height = Math.round(height * ratio);
    }
    const context = canvas.getContext('2d');
    context.setTransform(ratio, 0, 0, ratio, 0, 0);
    context.clearRect(0, 0, width, height);
    const style = getComputedStyle(canvas);
    const foreground = style.getPropertyValue('--fg').trim() || '#222';
    const grid = style.getPropertyValue('--grid').trim() || '#ccc';
    const format = options.format || ((value) => String(Math.round(value * 100) / 100));
    context.font = '11px system-ui, sans-serif';

    let points = 0;
    let minT = Infinity;
    let maxT = -Infinity;
    let minV = Infinity;
    let maxV = -Infinity;
    for (const line of series)
    {
        for (const [t, v] of line.points)
        {
            if (!Number.isFinite(v))
            {
                continue;
            }
            points++;
            minT = Math.min(minT, t);
            maxT = Math.max(maxT, t);
            minV = Math.min(minV, v);
            maxV = Math.max(maxV, v);
        }
    }
    canvas.dataset.points = String(points);
    if (0 === points)
    {
        context.fillStyle = foreground;
        context.fillText(options.empty || 'no data yet', PAD.left, height / 2);
        return;
    }
    if (options.windowMs)
    {
        minT = Math.min(minT, maxT - options.windowMs);
    }
    if (maxT === minT)
    {
        minT -= 1000;
        maxT += 1000;
    }
    if (options.zeroBased)
    {
        minV = Math.min(0, minV);
    }
    if (maxV === minV)
    {
        const spread = Math.abs(maxV) * 0.01 || 1;
        minV -= spread;
        maxV += spread;
    }
    else
    {
        const margin = (maxV - minV) * 0.08;
        maxV += margin;
        minV = options.zeroBased && minV >= 0 ? minV : minV - margin;
    }
    const plotW = width - PAD.left - PAD.right;
    const plotH = height - PAD.top - PAD.bottom;
    const x = (t) => PAD.left + (t - minT) / (maxT - minT) * plotW;
    const y = (v) => PAD.top + (1 - (v - minV) / (maxV - minV)) * plotH;

    context.strokeStyle = grid;
    context.fillStyle = foreground;
    context.lineWidth = 1;
    context.textAlign = 'right';
    context.textBaseline = 'middle';
    for (let i = 0; i <= 4; i++)
    {
        const value = minV + (maxV - minV) * i / 4;
        const py = y(value);
        context.beginPath();
        context.moveTo(PAD.left, py);
        context.lineTo(width - PAD.right, py);
        context.stroke();
        context.fillText(format(value), PAD.left - 6, py);
    }
    context.textAlign = 'center';
    context.textBaseline = 'top';
    const withMs = maxT - minT < 10_000;
    const timeLabel = (t) =>
    {
        const date = new Date(t);
        const text = date.toLocaleTimeString([], { hour12: false });
        return withMs ? `${text}.${String(date.getMilliseconds()).padStart(3, '0')}` : text;
    };
    for (let i = 0; i <= 3; i++)
    {
        const t = minT + (maxT - minT) * i / 3;
        context.fillText(timeLabel(t), Math.min(Math.max(x(t), PAD.left + 24), width - 30),
            height - PAD.bottom + 6);
    }

    let legendX = PAD.left;
    context.textAlign = 'left';
    context.textBaseline = 'top';
    for (const line of series)
    {
        const color = line.color.startsWith('--') ? style.getPropertyValue(line.color).trim() : line.color;
        context.strokeStyle = color;
        context.fillStyle = color;
        context.lineWidth = 1.6;
        context.beginPath();
        let started = false;
        for (const [t, v] of line.points)
        {
            if (!Number.isFinite(v))
            {
                started = false;
                continue;
            }
            if (started)
            {
                context.lineTo(x(t), y(v));
            }
            else
            {
                context.moveTo(x(t), y(v));
                started = true;
            }
        }
        context.stroke();
        if (1 === line.points.length)
        {
            const [t, v] = line.points[0];
            context.fillRect(x(t) - 2, y(v) - 2, 4, 4);
        }
        context.fillRect(legendX, 6, 10, 3);
        context.fillText(line.label, legendX + 14, 2);
        legendX += context.measureText(line.label).width + 32;
    }
}

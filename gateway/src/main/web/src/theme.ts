// Light and dark theme: the system's preference (prefers-color-scheme) until the `theme` button picks one, which is
// kept in the browser's local storage. Charts listen for THEME_EVENT to take the new colours.

export type Theme = 'light' | 'dark';

export const THEME_KEY = 'warpbus-theme';
export const THEME_EVENT = 'warpbus-theme';

function stored(): Theme | null
{
    try
    {
        const value = localStorage.getItem(THEME_KEY);
        return 'light' === value || 'dark' === value ? value : null;
    }
    catch
    {
        return null;
    }
}

function preferred(): Theme
{
    return window.matchMedia && window.matchMedia('(prefers-color-scheme: light)').matches ? 'light' : 'dark';
}

export function currentTheme(): Theme
{
    return 'light' === document.documentElement.dataset.theme ? 'light' : 'dark';
}

/** Shows a theme without remembering it. */
export function applyTheme(theme: Theme): void
{
    document.documentElement.dataset.theme = theme;
    const button = document.getElementById('theme');
    if (button)
    {
        button.textContent = 'dark' === theme ? 'light theme' : 'dark theme';
        button.setAttribute('aria-pressed', String('light' === theme));
    }
    window.dispatchEvent(new CustomEvent(THEME_EVENT, { detail: theme }));
}

/** The remembered choice, else the system's; follows the system's changes while nothing was chosen. */
export function initTheme(): void
{
    applyTheme(stored() ?? preferred());
    window.matchMedia?.('(prefers-color-scheme: light)').addEventListener('change', () =>
    {
        if (null === stored())
        {
            applyTheme(preferred());
        }
    });
}

/** Switches to the other theme and remembers it. */
export function toggleTheme(): Theme
{
    const next: Theme = 'dark' === currentTheme() ? 'light' : 'dark';
    try
    {
        localStorage.setItem(THEME_KEY, next);
    }
    catch
    {
        // Storage refused (private mode): the choice lasts until the page is reloaded.
    }
    applyTheme(next);
    return next;
}

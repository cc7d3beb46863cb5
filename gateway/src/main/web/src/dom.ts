// Small DOM helpers shared by the views.

/** The element with an id, typed; throws when the page has none (a mismatch between index.html and the code). */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T
{
    const node = document.getElementById(id);
    if (null === node)
    {
        throw new Error(`the page has no element #${id}`);
    }
    return node as T;
}

/** A new element with text (not HTML) and a class. */
export function element<K extends keyof HTMLElementTagNameMap>(tag: K, text?: unknown, className?: string):
    HTMLElementTagNameMap[K]
{
    const node = document.createElement(tag);
    if (undefined !== text && null !== text)
    {
        node.textContent = String(text);
    }
    if (className)
    {
        node.className = className;
    }
    return node;
}

/**
 * Hostile HTML in a rendered answer, as a renderer that let it through would give it: each entry
 * would load something from `origin`, or run code that does, if it reached the page unchecked.
 * The second pass of the chat view (untrustedRender.ts) must leave none of it; its tests use these
 * in jsdom and in Chromium, where the requests can be seen.
 */
export function hostileAnswers(origin: string): Array<[name: string, html: string]> {
  return [
    ["srcset", `<img srcset="${origin}/srcset 1x" alt="Схема 图 🦓">`],
    ["picture and source", `<picture><source srcset="${origin}/source"><img src="${origin}/picture"></picture>`],
    ["svg image (href)", `<svg><image href="${origin}/svg-image"/></svg>`],
    ["svg image (xlink:href)", `<svg xmlns:xlink="http://www.w3.org/1999/xlink"><image xlink:href="${origin}/svg-xlink"/></svg>`],
    ["svg use of another document", `<svg><use href="${origin}/sprite.svg#icon"/></svg>`],
    ["svg paint from another document", `<svg><rect width="5" height="5" fill="url(${origin}/paint.svg#p)"/></svg>`],
    ["svg feImage and foreignObject", `<svg><filter><feImage href="${origin}/fe"/></filter><foreignObject><img src="${origin}/fo"></foreignObject></svg>`],
    ["style=url()", `<div style="background-image: url(${origin}/style)">ข้อความ</div>`],
    ["style=url() spelled with an escape", `<div style="background: u\\72 l(${origin}/escaped)">x</div>`],
    ["style=image-set()", `<div style='background-image: image-set("${origin}/set.png" 1x)'>x</div>`],
    ["on* attributes", `<p onclick="fetch('${origin}/click')" onmouseover="fetch('${origin}/over')">نص</p><svg onload="fetch('${origin}/svgload')"></svg>`],
    ["<link>", `<link rel="stylesheet" href="${origin}/style.css"><link rel="prefetch" href="${origin}/prefetch">`],
    ["<style>", `<style>@import url(${origin}/import.css); p { background: url(${origin}/rule) }</style>`],
    ["<object> and <embed>", `<object data="${origin}/object"></object><embed src="${origin}/embed">`],
    ["<iframe srcdoc>", `<iframe srcdoc="<img src=${origin}/srcdoc>"></iframe><iframe src="${origin}/frame"></iframe>`],
    ["<meta http-equiv=refresh>", `<meta http-equiv="refresh" content="0; url=${origin}/refresh">`],
    ["<base href>", `<base href="${origin}/base/">`],
    ["background= attributes", `<table background="${origin}/table"><tr><td background="${origin}/cell">x</td></tr></table>`],
    ["<input type=image>", `<input type="image" src="${origin}/input">`],
    ["<video poster>", `<video poster="${origin}/poster"><source src="${origin}/video"></video>`],
    ["a form and formaction", `<form action="${origin}/form"><button formaction="${origin}/formaction">go</button></form><button formaction="${origin}/button">b</button>`],
    ["a ping", `<a href="https://example.org/" ping="${origin}/ping">link</a>`],
    ["a template", `<template><img src="${origin}/template"></template>`],
    ["an event that fires on insertion", `<details open ontoggle="fetch('${origin}/ontoggle')"><summary>s</summary></details>`],
    ["an image whose error runs code", `<img src="${origin}/broken" onerror="fetch('${origin}/onerror')">`],
  ];
}

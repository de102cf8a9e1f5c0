#!/usr/bin/env python3
"""What pm-suspend --timeline drew, against the trace it came from and
the browser's screenshot of it:

  timeline-check.py PAGE.html TRACE SHOT.png COLOUR...

prints "wellformed" when the page parses as XML, "callbacks N" (bars), "narrow N" (bars under one pixel wide),
"devices N" (in the trace), "missing N" (devices of the trace without a
bar), and "painted COLOUR EXPECTED SEEN" for each colour: the pixels the
page's rectangles paint in it (later ones over earlier ones, as SVG
paints) and the pixels of it in the screenshot."""
import html.parser
import re
import subprocess
import sys
import xml.etree.ElementTree as ET


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.svg = -1
        self.rects = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == 'svg':
            self.svg += 1
        elif tag == 'rect':
            self.rects.append((self.svg, a))


def main():
    page, trace, shot, colours = sys.argv[1], sys.argv[2], sys.argv[3], \
        [c.lower() for c in sys.argv[4:]]
    ET.parse(page)
    print('wellformed')
    p = Page()
    with open(page, encoding='utf-8') as f:
        p.feed(f.read())
    bars = [a for _, a in p.rects if 'cb' in a.get('class', '').split()]
    print('callbacks', len(bars))
    print('narrow', sum(1 for a in bars if float(a['width']) < 1))
    devs = set()
    start = re.compile(r'device_pm_callback_start: \S* (.*), parent: ')
    with open(trace, encoding='utf-8') as f:
        for line in f:
            m = start.search(line)
            if m:
                devs.add(m.group(1))
    print('devices', len(devs))
    print('missing', len(devs - {a.get('data-dev') for a in bars}))
    paint = {}
    for svg, a in p.rects:
        x, y = int(a['x']), int(a['y'])
        for dx in range(int(a['width'])):
            for dy in range(int(a['height'])):
                paint[(svg, x + dx, y + dy)] = a.get('fill', '').lower()
    seen = subprocess.run([sys.executable, sys.argv[0].replace(
        'timeline-check.py', 'pngcolors.py'), shot] + colours,
        check=True, capture_output=True, text=True).stdout.split()
    for c, n in zip(colours, seen):
        print('painted', c.lstrip('#'),
              sum(1 for v in paint.values() if v == c), n)


main()

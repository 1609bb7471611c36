"""A local Innosoft Fusion campus for Benchmarks/campus.sh: GET /FacilityOccupancy answers the full page with
N facility cards, POST /FacilityOccupancy/GetFacilityData one facility's fragment, each after a fixed delay
(the added latency), from its own thread. GET /stats answers the requests and bytes served so far.
The sizes are assumptions, not captures (none exists): a fragment of about 4.6 KB (what Waterloo's answer
was reported to weigh) and a page of the same cards inside about 40 KB of site markup (header, navigation,
scripts).
    python3 campus_server.py PORT DELAY_SECONDS CARDS"""
import http.server, socketserver, sys, threading, time, urllib.parse, uuid
DELAY = float(sys.argv[2]); CARDS = int(sys.argv[3])
IDS = [str(uuid.UUID(int=i + 1)) for i in range(CARDS)]
lock = threading.Lock(); stats = {"requests": 0, "bytes": 0}

def card(i, fid):
    chart = lambda s: (f'<canvas class="occupancy-chart" id="occupancyChart-{fid}{s}" data-ratio="0.41" '
                       f'data-occupancy="{40 + i}" data-remaining="{60 - i}" aria-labelledby="chartDesc-{fid}{s}">'
                       f'</canvas><span id="chartDesc-{fid}{s}" class="sr-only">Max Occupancy: 100, Current Occupancy: 41%</span>')
    body = (f'<div class="col-12 col-md-6 col-lg-4 mb-4" data-facilityid="{fid}"><div class="card occupancy-card">'
            f'<div class="card-header occupancy-card-header"><h2><strong>{i + 1}. Facility {i + 1}</strong></h2></div>'
            f'<div class="card-body occupancy-card-body"><p class="max-occupancy">Max Occupancy: <strong>100</strong></p>'
            f'<div class="d-none d-md-block">{chart("")}</div><div class="d-md-none">{chart("-sm")}</div>'
            f'<p class="occupancy-count">{40 + i}</p></div></div></div>')
    return body + "<!-- " + "x" * max(0, 4600 - len(body) - 9) + " -->"

PAGE = ('<!DOCTYPE html><html><head><title>Facility Occupancy</title>' + '<script>/*' + 'x' * 30000 + '*/</script>'
        + '</head><body><nav>' + '<a href="/x">Link</a>' * 400 + '</nav><main><h1>Facility Occupancy</h1>'
        + '<p>Last updated <span id="last-update">2:56 PM</span></p><div class="row">'
        + ''.join(card(i, f) for i, f in enumerate(IDS)) + '</div></main></body></html>').encode()
FRAGMENTS = {f: card(i, f).encode() for i, f in enumerate(IDS)}

class H(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def answer(self, body, delay=True):
        if delay: time.sleep(DELAY)
        with lock: stats["requests"] += 1; stats["bytes"] += len(body)
        self.send_response(200); self.send_header('Content-Type', 'text/html; charset=utf-8')
        self.send_header('Content-Length', str(len(body))); self.end_headers(); self.wfile.write(body)
    def do_GET(self):
        if self.path == '/stats':
            with lock: text = f'{stats["requests"]} {stats["bytes"]}'.encode(); stats["requests"] = stats["bytes"] = 0
            self.send_response(200); self.send_header('Content-Length', str(len(text))); self.end_headers(); self.wfile.write(text)
        elif self.path == '/ids':
            text = '\n'.join(IDS).encode()
            self.send_response(200); self.send_header('Content-Length', str(len(text))); self.end_headers(); self.wfile.write(text)
        else: self.answer(PAGE)
    def do_POST(self):
        n = int(self.headers.get('Content-Length', 0)); fields = urllib.parse.parse_qs(self.rfile.read(n).decode())
        self.answer(FRAGMENTS.get(fields.get('facilityId', [''])[0], b'<p>no such facility</p>'))
    def log_message(self, *a): pass
class S(socketserver.ThreadingMixIn, http.server.HTTPServer): daemon_threads = True; request_queue_size = 64
S(('127.0.0.1', int(sys.argv[1])), H).serve_forever()

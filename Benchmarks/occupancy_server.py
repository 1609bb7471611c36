"""A local stand-in for the occupancy endpoint, for Benchmarks/occupancy.sh: every POST is answered with a
fragment in the shape of ARCHITECTURE §7 (docs/ARCHITECTURE.md) after a fixed delay (the added latency), from its own thread.
    python3 occupancy_server.py PORT DELAY_SECONDS"""
import http.server, socketserver, sys, time, urllib.parse
DELAY = float(sys.argv[2]) if len(sys.argv) > 2 else 0
class H(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def do_POST(self):
        n = int(self.headers.get('Content-Length', 0)); body = self.rfile.read(n).decode()
        fid = urllib.parse.parse_qs(body).get('facilityId', [''])[0]
        time.sleep(DELAY)
        page = f'<canvas class="occupancy-chart" id="occupancyChart-{fid}" data-occupancy="165" data-remaining="435"></canvas><p>Max Occupancy: <strong>600</strong></p>'.encode()
        self.send_response(200); self.send_header('Content-Type', 'text/html; charset=utf-8'); self.send_header('Content-Length', str(len(page))); self.end_headers(); self.wfile.write(page)
    def log_message(self, *a): pass
class S(socketserver.ThreadingMixIn, http.server.HTTPServer): daemon_threads = True
S(('127.0.0.1', int(sys.argv[1])), H).serve_forever()

import CCurl
import Fetching
import Foundation
import Synchronization
import TextSearch

/// The process's HTTP client: libcurl's easy interface, one transfer per request on a thread of its own.
///
/// URLSession on Linux (swift-corelibs-foundation) was used before. It leaves a socket's write source
/// armed after the request is sent, so while it waits for an answer the always-writable socket wakes
/// libdispatch without pause. Measured: 2.8 s of CPU over a 6 s wait for a slow server, against curl's
/// nothing. libcurl itself also gives what gymcard needs directly: a whole-request timeout
/// (`CURLOPT_TIMEOUT_MS`, not an idle one), redirects with the final URL, and an abort from a
/// progress callback for Ctrl-C.
public final class CurlClient: HTTPClient {
    private let userAgent: String

    /// A client; `userAgent` is sent with every request.
    public init(userAgent: String) {
        self.userAgent = userAgent
        Self.globalInit
    }

    /// `curl_global_init`, once per process, before any handle exists (it is not thread-safe).
    private static let globalInit: Void = { _ = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) }()

    /// Sends `request`; gives up after `timeoutSeconds` from start to last byte. Cancelling the task
    /// that awaits it (Ctrl-C) aborts the transfer.
    public func send(_ request: HTTPRequest, timeoutSeconds: Double) async throws(FetchError) -> HTTPResponse
    {
        let cancelled = CancelFlag()
        let userAgent = userAgent
        let outcome: Result<HTTPResponse, FetchError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                // curl_easy_perform blocks: a thread of its own keeps the concurrency pool free.
                let thread = Thread {
                    let transfer = Transfer(request: request, userAgent: userAgent, cancelled: cancelled)
                    continuation.resume(returning: transfer.perform(timeoutSeconds: timeoutSeconds))
                }
                thread.start()
            }
        } onCancel: {
            cancelled.value.store(true, ordering: .relaxed)
        }
        return try outcome.get()
    }
}

/// Set when the awaiting task is cancelled; read by the transfer's progress callback.
private final class CancelFlag: Sendable {
    let value = Atomic<Bool>(false)
}

/// One transfer: the easy handle's settings, what arrives, and whether to abort. Used by one thread.
private final class Transfer {
    let request: HTTPRequest
    let userAgent: String
    let cancelled: CancelFlag
    var body = Data()
    var headers: [String: String] = [:]
    /// Bodies larger than this are cut off (the fetcher refuses anything above 4 MB anyway).
    let maximumBodyBytes = 16_000_000

    init(request: HTTPRequest, userAgent: String, cancelled: CancelFlag) {
        self.request = request
        self.userAgent = userAgent
        self.cancelled = cancelled
    }

    var isCancelled: Bool { cancelled.value.load(ordering: .relaxed) }

    /// One header line. A status line starts a new set (after a redirect, only the last answer's count).
    func header(_ line: String) {
        if line.hasPrefix("HTTP/") {
            headers = [:]
            return
        }
        guard let colon = line.firstIndex(of: ":") else { return }
        let name = line[..<colon].trimmed.lowercased()
        let value = line[line.index(after: colon)...].trimmed
        guard !name.isEmpty else { return }
        headers[name] = headers[name].map { $0 + ", " + value } ?? value
    }

    /// libcurl's result codes in the taxonomy a person reads.
    static func classify(_ code: CURLcode, host: String, detail: String, timeoutSeconds: Double) -> FetchError
    {
        switch code {
        case CURLE_ABORTED_BY_CALLBACK: return .cancelled
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY: return .offline(host: host)
        case CURLE_OPERATION_TIMEDOUT: return .timedOut(host: host, seconds: timeoutSeconds)
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM,
            CURLE_SSL_CACERT_BADFILE:
            return .transport(host: host, detail: "the TLS handshake failed (is the clock right?)")
        case CURLE_TOO_MANY_REDIRECTS: return .transport(host: host, detail: "it redirects in a loop")
        case CURLE_WRITE_ERROR: return .tooLarge(host: host, limitBytes: 16_000_000)
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT:
            return .transport(host: host, detail: "the address is not an http(s) URL")
        case CURLE_GOT_NOTHING, CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_PARTIAL_FILE:
            return .transport(host: host, detail: "the connection dropped mid-answer")
        case CURLE_WEIRD_SERVER_REPLY: return .transport(host: host, detail: "the answer was not valid HTTP")
        default:
            let words = detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
            return .transport(host: host, detail: words)
        }
    }

    func perform(timeoutSeconds: Double) -> Result<HTTPResponse, FetchError> {
        let host = request.host
        guard let handle = curl_easy_init() else {
            return .failure(.transport(host: host, detail: "libcurl could not start a transfer"))
        }
        defer { curl_easy_cleanup(handle) }
        var headerList: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(headerList) }
        var lines = ["Accept: \(request.accept)"]
        if let contentType = request.contentType { lines.append("Content-Type: \(contentType)") }
        for (name, value) in request.headers.sorted(by: { $0.key < $1.key }) {
            lines.append("\(name): \(value)")
        }
        // libcurl adds "Expect: 100-continue" to larger POSTs, which costs a round trip: not wanted.
        lines.append("Expect:")
        for line in lines { headerList = curl_slist_append(headerList, line) }

        let context = Unmanaged.passUnretained(self).toOpaque()
        var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE))
        let code: CURLcode = errorBuffer.withUnsafeMutableBufferPointer { errors in
            gymcard_curl_set_string(handle, CURLOPT_URL, request.url.absoluteString)
            gymcard_curl_set_string(handle, CURLOPT_USERAGENT, userAgent)
            gymcard_curl_set_pointer(handle, CURLOPT_HTTPHEADER, headerList)
            gymcard_curl_set_pointer(handle, CURLOPT_ERRORBUFFER, errors.baseAddress)
            gymcard_curl_set_long(handle, CURLOPT_NOSIGNAL, 1)
            gymcard_curl_set_long(handle, CURLOPT_FOLLOWLOCATION, 1)
            gymcard_curl_set_long(handle, CURLOPT_MAXREDIRS, 10)
            gymcard_curl_set_string(handle, CURLOPT_PROTOCOLS_STR, "http,https")
            gymcard_curl_set_string(handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
            gymcard_curl_set_string(handle, CURLOPT_ACCEPT_ENCODING, "")
            gymcard_curl_set_long(
                handle, CURLOPT_TIMEOUT_MS, max(1, Int((timeoutSeconds * 1000).rounded(.up))))
            if request.method == .post {
                let body = request.body ?? Data()
                gymcard_curl_set_long(handle, CURLOPT_POST, 1)
                gymcard_curl_set_size(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count))
                // COPYPOSTFIELDS copies the bytes, so they need not outlive this call.
                body.withUnsafeBytes { bytes in
                    _ = gymcard_curl_set_pointer(
                        handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress))
                }
            }
            gymcard_curl_set_pointer(handle, CURLOPT_WRITEDATA, context)
            gymcard_curl_set_data_callback(handle, CURLOPT_WRITEFUNCTION) { data, size, count, context in
                guard let data, let context else { return 0 }
                let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
                let length = size * count
                guard transfer.body.count + length <= transfer.maximumBodyBytes else { return 0 }
                transfer.body.append(
                    UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self), count: length)
                return length
            }
            gymcard_curl_set_pointer(handle, CURLOPT_HEADERDATA, context)
            gymcard_curl_set_data_callback(handle, CURLOPT_HEADERFUNCTION) { data, size, count, context in
                guard let data, let context else { return 0 }
                let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
                let length = size * count
                let line = String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self)
                transfer.header(line)
                return length
            }
            gymcard_curl_set_long(handle, CURLOPT_NOPROGRESS, 0)
            gymcard_curl_set_pointer(handle, CURLOPT_XFERINFODATA, context)
            gymcard_curl_set_progress_callback(handle) { context, _, _, _, _ in
                guard let context else { return 0 }
                let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
                return transfer.isCancelled ? 1 : 0
            }
            return curl_easy_perform(handle)
        }
        if code == CURLE_COULDNT_CONNECT {
            // Refused (nothing listens) or unreachable (no network): the system's errno tells.
            var osError = 0
            gymcard_curl_get_long(handle, CURLINFO_OS_ERRNO, &osError)
            return .failure(osError == Int(ECONNREFUSED) ? .refused(host: host) : .offline(host: host))
        }
        if code != CURLE_OK {
            let detail = String(
                decoding: errorBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return .failure(Self.classify(code, host: host, detail: detail, timeoutSeconds: timeoutSeconds))
        }
        var status = 0
        gymcard_curl_get_long(handle, CURLINFO_RESPONSE_CODE, &status)
        var effective: UnsafeMutablePointer<CChar>?
        gymcard_curl_get_string(handle, CURLINFO_EFFECTIVE_URL, &effective)
        let finalURL = effective.flatMap { URL(string: String(cString: $0)) } ?? request.url
        // Retry-After may be an HTTP date; the Fetching module reads only seconds, so convert here.
        if let retryAfter = headers["retry-after"], Int(retryAfter.trimmed) == nil,
            let date = InternetDate.parse(retryAfter)
        {
            headers["retry-after"] = "\(max(0, Int(date.timeIntervalSinceNow.rounded(.up))))"
        }
        return .success(HTTPResponse(status: status, headers: headers, body: body, url: finalURL))
    }
}

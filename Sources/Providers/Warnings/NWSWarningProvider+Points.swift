import WeatherDomain

extension NWSWarningProvider {
    /// `GET /points/LAT,LON`, coordinates with at most 4 decimals as NWS requires, with the headers of
    /// `alertsRequest`. NWS answers 200 for a point it covers and 404 for one outside its area, so a 404 is an
    /// answer here (`ProviderRequest.notFoundIsAnswer`), read by `decodePoint`.
    package func pointRequest(lat: Double, lon: Double) -> ProviderRequest {
        let url = baseURL + "/points/\(RequestURL.coordinate(lat)),\(RequestURL.coordinate(lon))"
        return ProviderRequest(
            url: url, auditURL: url, headers: ["User-Agent": userAgent, "Accept": "application/geo+json"],
            notFoundIsAnswer: true)
    }

    /// Whether NWS covers the point, from the status and body of a `/points` answer.
    ///
    /// A 2xx must be a GeoJSON feature with `properties` (the point's office and grid): covered. A 404 must
    /// be a JSON object (NWS's problem document, `Data Unavailable For Requested Point`): not covered. A 404
    /// that is not JSON (a proxy's page, a wrong base URL) says nothing about the point and is an error.
    ///
    /// - Throws: `ProviderError` `bad_upstream_response` for a body that is not what the status needs.
    package func decodePoint(status: Int, body: [UInt8]) throws(ProviderError) -> Bool {
        guard status == 404 else {
            try ResponseBody.decode(body, provider: name) { (root) throws(FieldError) in
                let top = try FieldReader(root, path: "$")
                _ = try FieldReader(top.members["properties"], path: "$.properties")
            }
            return true
        }
        guard case .object = try ResponseBody.parse(body, provider: name) else {
            throw ProviderError.badBody(name, "a 404 from /points must be a JSON problem document")
        }
        return false
    }
}

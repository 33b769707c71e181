extension CommandLedger {
    /// Rebuilds the ledger from its canonical `json` (`[[commandId, result], …]`, oldest first) and its
    /// `methodsJSON` (`[method, …]`, in the same order), exactly.
    ///
    /// - Parameters:
    ///   - window: the command window the ledger was built with; a ledger is only equal to a replay made with
    ///     the same window, so a snapshot taken with another one is not used.
    ///   - keepingNewest: keep only the newest `window` commands of a larger ledger instead of refusing it.
    /// - Throws: `FieldError` naming the element that does not match the canonical form.
    package init(
        json: JSONValue, methods: JSONValue, window: Int, keepingNewest: Bool = false, path: String = "commands",
        methodsPath: String = "commandMethods"
    ) throws(FieldError) {
        self.init(window: window)
        guard case .array(let pairs) = json else { throw FieldError(path: path, problem: "must be an array") }
        guard case .array(let methodNames) = methods, methodNames.count == pairs.count else {
            throw FieldError(path: methodsPath, problem: "must be an array of one method per command")
        }
        guard pairs.count <= self.window || keepingNewest else {
            throw FieldError(path: path, problem: "holds more than the window of \(self.window) commands")
        }
        let first = max(0, pairs.count - self.window)
        order.reserveCapacity(pairs.count - first)
        results.reserveCapacity(pairs.count - first)
        for (index, pair) in pairs.enumerated() where index >= first {
            guard case .string(let name) = methodNames[index], let method = CommandMethod(rawValue: name) else {
                throw FieldError(path: "\(methodsPath)[\(index)]", problem: "must be a method that the ledger knows")
            }
            guard case .array(let members) = pair, members.count == 2, case .string(let commandId) = members[0],
                results.updateValue(Entry(method: method, answer: .json(members[1])), forKey: commandId) == nil
            else {
                throw FieldError(path: "\(path)[\(index)]", problem: "must be a [commandId, result] pair, once per id")
            }
            order.append(commandId)
        }
    }
}

import WeatherEngine

/// A positional argument of a command, declared once: its name in usage, whether it may be left out, and
/// how a shell completes it. An action (`add`, `rules`) is a word written as it is.
package struct Argument: Sendable {
    /// `PLACE`, `FAVORITE`, or the action word itself.
    package var name: String
    package var completion: ShellCompletion = .none
    /// Whether it may be left out (shown `[PLACE]`).
    package var optional = false
    /// Whether it is an action word, written as `name` is.
    package var isAction = false
    /// Whether it names a place, so that several words given for it are told to quote them.
    package var isPlace = false
    /// What a word of `choices` is called in an error ("unknown shell tcsh: bash, zsh or fish").
    package var noun: String?

    /// A place: a city, `LAT,LON`, or a favorite's name or id.
    static let place = Argument(name: "PLACE", completion: .favorites, isPlace: true)
    /// A favorite, by its name or id.
    static let favorite = Argument(name: "FAVORITE", completion: .favorites)

    /// The action word `word`.
    static func action(_ word: String) -> Argument { Argument(name: word, isAction: true) }

    /// One of `words`, called `noun` in an error.
    static func choice(_ noun: String, _ words: [String]) -> Argument {
        Argument(name: words.joined(separator: "|"), completion: .choices(words), noun: noun)
    }

    /// Any text, shown as `name`.
    static func text(_ name: String) -> Argument { Argument(name: name) }

    /// The same argument, which may be left out.
    var orNone: Argument {
        var argument = self
        argument.optional = true
        return argument
    }

    /// `PLACE`, `[PLACE]`, `add`, `[list]`.
    var usage: String { optional ? "[\(name)]" : name }

    /// The words `choices` allows, if it is a choice.
    var choices: [String]? {
        if case .choices(let words) = completion, noun != nil { return words }
        return nil
    }
}

/// One way of calling a command: its positional arguments in order, and the options that go with them
/// when the command has several ways (`favorites add CITY | LAT,LON --name NAME`).
package struct ArgumentForm: Sendable {
    package var arguments: [Argument]
    /// The flags shown on this form's usage line; every option of the command is shown with a single form.
    package var flags: [String] = []

    package init(_ arguments: [Argument] = [], flags: [String] = []) {
        self.arguments = arguments
        self.flags = flags
    }

    /// The action word it begins with, if it does.
    var action: String? { arguments.first.flatMap { $0.isAction ? $0.name : nil } }
    /// How many positional arguments it takes at least, and at most.
    var counts: ClosedRange<Int> { arguments.filter { !$0.optional }.count...arguments.count }
}

extension Command {
    /// The form `words` (the positional arguments) call, checked against it: its action, how many words, and
    /// each choice.
    ///
    /// - Throws: a `UsageError` saying which action, how many words or which word is wrong; several words
    ///   where a place goes are told to be quoted.
    func form(of words: [String]) throws -> ArgumentForm {
        let actions = forms.compactMap(\.action)
        var form = forms[0]
        if !actions.isEmpty {
            let word = words.first
            guard
                let found = forms.first(where: { word == nil ? $0.counts.lowerBound == 0 : $0.action == word })
                    ?? forms.first(where: { $0.action == nil && $0.counts.upperBound > 0 })
            else {
                throw UsageError("unknown action \(word ?? ""): \(OptionValue<String>.either(actions))")
            }
            form = found
        }
        guard form.counts.contains(words.count) else {
            throw UsageError(tooMany(words, for: form))
        }
        for (word, argument) in zip(words, form.arguments) {
            if let choices = argument.choices, !choices.contains(word), let noun = argument.noun {
                throw UsageError("unknown \(noun) \(word): \(OptionValue<String>.either(choices))")
            }
        }
        return form
    }

    /// "now takes at most one PLACE", "favorites rename takes FAVORITE NEW-NAME", with "put a name of several
    /// words in quotes" when the extra words follow a place.
    private func tooMany(_ words: [String], for form: ArgumentForm) -> String {
        let subject = ([name] + (form.action.map { [$0] } ?? [])).joined(separator: " ")
        let rest = form.action == nil ? form.arguments : Array(form.arguments.dropFirst())
        let takes: String
        if rest.isEmpty {
            takes = "no arguments"
        } else if rest.count == 1 {
            takes = (rest[0].optional ? "at most one " : "one ") + rest[0].name
        } else {
            takes = rest.map(\.usage).joined(separator: " ")
        }
        var message = "\(subject) takes \(takes)"
        if words.count > form.counts.upperBound, let last = form.arguments.last, last.isPlace {
            let index = form.arguments.count - 1
            let place = words[index...].joined(separator: " ")
            let before = words[..<index].map { " \($0)" }.joined()
            message += "; put a name of several words in quotes: weatherd \(name)\(before) \"\(place)\""
        }
        return message
    }
}

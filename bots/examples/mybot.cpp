// The example bot of bots/examples/mybot.py in C++: the same rules, the same parameters, the same moves.
//
// Build: g++ -O2 -std=c++17 -o mybot mybot.cpp      (paste it into the CodinGame IDE as C++ as it is)
// Its parameters are the constants marked `// tuner: NAME` (`tuner export STUDY --template mybot.cpp` fills
// them), and can also be given on the command line: --complete-day 12 ..., or --params FILE.json (a JSON
// object of name: value, or a `tuner export` file holding one under "params"); command-line values win.
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace std;

int COMPLETE_DAY = 12;  // tuner: complete_day
int KEEP_LARGE = 3;  // tuner: keep_large
int MAX_SEEDS = 1;  // tuner: max_seeds
int SEED_STOP_LEFT = 5;  // tuner: seed_stop_left
double W_RICH = 1.0;  // tuner: w_rich
double W_SHADE = 3.0;  // tuner: w_shade

const int RICHNESS_BONUS[4] = {0, 0, 2, 4};
const int GROW_COST[3] = {1, 3, 7};  // to grow from size 0, 1, 2; plus one per own tree of the next size
const double COST_WEIGHT = 0.3;

struct Tree {
    int size, mine, dormant;
};

bool set_parameter(const string& raw, const string& value) {
    string name = raw;
    for (char& c : name) c = c == '-' ? '_' : c;
    if (name == "complete_day") COMPLETE_DAY = stoi(value);
    else if (name == "keep_large") KEEP_LARGE = stoi(value);
    else if (name == "max_seeds") MAX_SEEDS = stoi(value);
    else if (name == "seed_stop_left") SEED_STOP_LEFT = stoi(value);
    else if (name == "w_rich") W_RICH = stod(value);
    else if (name == "w_shade") W_SHADE = stod(value);
    else return false;
    return true;
}

// A flat JSON object of name: number (or the object under "params"), read without a JSON library.
void read_params_file(const string& path) {
    ifstream in(path);
    if (!in) {
        cerr << path << ": cannot read" << endl;
        exit(2);
    }
    stringstream buffer;
    buffer << in.rdbuf();
    string text = buffer.str();
    size_t at = text.find("\"params\"");
    size_t start = 0, end = text.size();
    if (at != string::npos) {
        start = text.find('{', at);
        int depth = 0;
        for (end = start; end < text.size(); end++) {
            if (text[end] == '{') depth++;
            if (text[end] == '}' && --depth == 0) break;
        }
    }
    size_t i = start;
    while ((i = text.find('"', i)) != string::npos && i < end) {
        size_t close = text.find('"', i + 1);
        string name = text.substr(i + 1, close - i - 1);
        size_t colon = text.find_first_not_of(" \t\r\n", close + 1);
        i = close + 1;
        if (colon == string::npos || text[colon] != ':') continue;
        size_t from = text.find_first_not_of(" \t\r\n", colon + 1);
        size_t to = text.find_first_of(",}\r\n", from);
        if (text[from] == '{' || text[from] == '"') continue;
        string value = text.substr(from, to - from);
        while (!value.empty() && value.back() == ' ') value.pop_back();
        if (!set_parameter(name, value)) {
            cerr << path << ": unknown parameter '" << name << "'" << endl;
            exit(2);
        }
        i = to;
    }
}

void read_parameters(int argc, char** argv) {
    if (argc % 2 == 0) {
        cerr << "options come in pairs: --name value" << endl;
        exit(2);
    }
    vector<pair<string, string>> options;
    for (int i = 1; i + 1 < argc; i += 2) {
        string flag = argv[i];
        if (flag.rfind("--", 0) != 0) {
            cerr << "unexpected argument " << flag << endl;
            exit(2);
        }
        if (flag == "--params") read_params_file(argv[i + 1]);
        else options.push_back({flag.substr(2), argv[i + 1]});
    }
    for (auto& [name, value] : options) {
        if (!set_parameter(name, value)) {
            cerr << "unknown option --" << name << endl;
            exit(2);
        }
    }
}

struct Bot {
    vector<int> richness;
    vector<vector<int>> neighbors;
    int last_day = -1;

    vector<int> ray(int cell, int direction, int length) const {
        vector<int> out;
        for (int k = 0; k < length; k++) {
            cell = neighbors[cell][direction];
            if (cell < 0) break;
            out.push_back(cell);
        }
        return out;
    }

    bool shaded(const map<int, Tree>& trees, int cell, int size, int day) const {
        int toward_sun = (day % 6 + 3) % 6;
        vector<int> cells = ray(cell, toward_sun, 3);
        for (size_t k = 0; k < cells.size(); k++) {
            auto it = trees.find(cells[k]);
            if (it != trees.end() && it->second.size >= (int)k + 1 && it->second.size >= size) return true;
        }
        return false;
    }

    bool next_to_own(const map<int, Tree>& trees, int cell) const {
        for (int other : neighbors[cell]) {
            auto it = trees.find(other);
            if (other >= 0 && it != trees.end() && it->second.mine) return true;
        }
        return false;
    }

    int own_lines(const map<int, Tree>& trees, int cell) const {
        int count = 0;
        for (int d = 0; d < 6; d++)
            for (int other : ray(cell, d, 2)) {
                auto it = trees.find(other);
                if (it != trees.end() && it->second.mine) count++;
            }
        return count;
    }

    string choose(int day, int nutrients, int sun, const map<int, Tree>& trees, const vector<string>& moves) {
        int mine_count = 0, large = 0, seeds = 0;
        int by_size[4] = {0, 0, 0, 0};
        for (auto& [cell, t] : trees)
            if (t.mine) {
                mine_count++;
                by_size[t.size]++;
            }
        large = by_size[3];
        seeds = by_size[0];
        if (last_day < 0) last_day = mine_count == 6 ? 0 : mine_count == 4 ? 5 : 23;
        int left = last_day - day;

        string best = "WAIT";
        vector<double> best_key = {0};
        for (const string& move : moves) {
            istringstream words(move);
            string kind;
            words >> kind;
            vector<double> key;
            if (kind == "COMPLETE") {
                int cell;
                words >> cell;
                int points = nutrients + RICHNESS_BONUS[richness[cell]];
                bool wanted = left == 0 ? points > sun / 3 - (sun - 4) / 3
                                        : left < 3 || (day >= COMPLETE_DAY && large > KEEP_LARGE);
                if (wanted) key = {3, (double)richness[cell], (double)-cell};
            } else if (kind == "GROW") {
                int cell;
                words >> cell;
                int size = trees.at(cell).size;
                if (left >= 3 - size) {
                    int cost = GROW_COST[size] + by_size[size + 1];
                    int shade = shaded(trees, cell, size + 1, day + 1) ? size + 1 : 0;
                    double score = size + W_RICH * richness[cell] - W_SHADE * shade - COST_WEIGHT * cost;
                    key = {2, score, (double)-cell};
                }
            } else if (kind == "SEED") {
                int source, target;
                words >> source >> target;
                if (!(seeds >= MAX_SEEDS || left <= SEED_STOP_LEFT || next_to_own(trees, target))) {
                    double score = W_RICH * richness[target] - W_SHADE * own_lines(trees, target);
                    key = {1, score, (double)-trees.at(source).size, (double)-target, (double)-source};
                }
            }
            if (!key.empty() && key > best_key) {
                best = move;
                best_key = key;
            }
        }
        return best;
    }
};

int main(int argc, char** argv) {
    read_parameters(argc, argv);
    Bot bot;
    string line;
    if (!getline(cin, line)) return 0;
    int cells = stoi(line);
    bot.richness.assign(cells, 0);
    bot.neighbors.assign(cells, vector<int>(6, -1));
    for (int i = 0; i < cells; i++) {
        int index, richness;
        cin >> index >> richness;
        bot.richness[index] = richness;
        for (int d = 0; d < 6; d++) cin >> bot.neighbors[index][d];
    }
    while (true) {
        int day, nutrients, sun, score, opp_sun, opp_score, opp_waiting, count;
        if (!(cin >> day)) return 0;
        cin >> nutrients >> sun >> score >> opp_sun >> opp_score >> opp_waiting >> count;
        map<int, Tree> trees;
        for (int i = 0; i < count; i++) {
            int cell, size, mine, dormant;
            cin >> cell >> size >> mine >> dormant;
            trees[cell] = {size, mine, dormant};
        }
        cin >> count;
        cin.ignore(1 << 20, '\n');
        vector<string> moves(count);
        for (auto& move : moves) {
            getline(cin, move);
            while (!move.empty() && (move.back() == '\r' || move.back() == ' ')) move.pop_back();
        }
        cout << bot.choose(day, nutrients, sun, trees, moves) << endl;
    }
}

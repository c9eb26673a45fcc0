// A test bot in C++ with a time per move: it waits `--time-ms T` on every answer, then plays the possible move
// PICK (modulo their number). Built by the tests as CodinGame builds it, through `cpp:` names.
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

using namespace std;

int PICK = 0;  // tuner: pick
int TIME_MS = 90;  // tuner: time_ms

int main(int argc, char** argv) {
    for (int i = 1; i + 1 < argc; i += 2) {
        string flag = argv[i];
        if (flag == "--time-ms") TIME_MS = atoi(argv[i + 1]);
        else if (flag == "--pick") PICK = atoi(argv[i + 1]);
    }
    int cells;
    string line;
    if (!(cin >> cells)) return 0;
    getline(cin, line);
    for (int i = 0; i < cells; i++) getline(cin, line);
    while (getline(cin, line)) {  // the day
        for (int i = 0; i < 3; i++) getline(cin, line);
        int trees = stoi((getline(cin, line), line));
        for (int i = 0; i < trees; i++) getline(cin, line);
        int count = stoi((getline(cin, line), line));
        vector<string> moves(count);
        for (auto& move : moves) getline(cin, move);
        this_thread::sleep_for(chrono::milliseconds(TIME_MS));
        cout << moves[PICK % count] << endl;
    }
}
